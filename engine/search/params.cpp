#include "engine/search/params.h"

namespace zh {

void SearchParams::declare(Options& o) {
  const char* g = "search";
  o.add_int("threads", 2, 1, 256, g, "search threads; each collects mini-batches for the evaluator",
            "Threads");
  o.add_int("batch_size", 16, 1, 1024, g, "leaves each search thread collects per evaluation");
  o.add_float("cpuct_init", 2.5, 0, 100, g, "eq. (3): exploration constant at the start");
  o.add_float("cpuct_base", 19652, 1, 1e9, g, "eq. (3): visits over which exploration grows");
  o.add_float("u_init", 1.0, 0.01, 100, g, "eqs. (10)(11): U divisor at the first visit");
  o.add_float("u_min", 0.25, 0.01, 100, g, "eqs. (10)(11): U divisor after many visits");
  o.add_float("u_base", 1965, 1, 1e9, g, "eqs. (10)(11): visits over which the divisor moves");
  o.add_float("q_init", -1.0, -1, 1, g, "Q value of a child that was never visited");
  o.add_int("virtual_loss", 3, 0, 1000, g, "losses charged to a path while its leaf is pending");
  o.add_bool("dirichlet_noise", false, g, "add Dirichlet noise to the root priors (training)");
  o.add_float("dirichlet_epsilon", 0.25, 0, 1, g, "share of the noise in the root priors");
  o.add_float("dirichlet_alpha", 0.2, 0.001, 10, g, "Dirichlet concentration of the noise");
  o.add_bool("check_enhancement", true, g,
             "eq. (12): raise the prior of checking moves below check_threshold");
  o.add_float("check_threshold", 0.1, 0, 1, g, "eq. (12): priors below this are raised");
  o.add_float("check_factor", 0.5, 0, 10, g, "eq. (12): raise by this times the top prior");
  o.add_bool("mate_in_one", true, g,
             "look for a checkmating move when a node is expanded (paper 9.2.7)");
  o.add_bool("mcts_solver", true, g, "propagate proven wins, losses and draws up the tree");
  o.add_bool("transpositions", true, g,
             "share network evaluations between transposed positions (paper 9.2.5)");
  o.add_bool("reuse_tree", true, g, "keep the subtree of the moves played between searches");
  o.add_float("q_factor", 0.7, 0, 1, g, "eq. (7): weight of Q against visits in the move choice");
  o.add_float("q_thresh_init", 0.5, 0, 1, g, "eq. (5): visit share threshold at the start");
  o.add_float("q_thresh_max", 0.9, 0, 1, g, "eq. (5): visit share threshold after many visits");
  o.add_float("q_thresh_base", 1965, 1, 1e9, g, "eq. (5): visits over which it moves");
  o.add_int("q_pv_depth", 0, 0, 5, g,
            "eq. (6): take Q from this depth of each move's line (0 = the move's own Q)");
  o.add_float("temperature", 0.07, 0.001, 10, g, "move sampling temperature (first moves only)");
  o.add_int("temperature_moves", 0, 0, 1000, g,
            "sample the move with `temperature` during this many of our first moves (0 = never)");
  o.add_int("max_tree_nodes", 0, 0, std::int64_t(1) << 40, g,
            "stop the search when the tree has this many nodes (0 = no cap)");
  o.add_int("max_memory_mb", 2048, 16, 1 << 20, g,
            "stop the search when the tree uses this much memory (MiB)", "Hash");
  o.add_int("seed", 0, 0, std::int64_t(1) << 62, g,
            "seed for noise and move sampling (0 = random)");
}

SearchParams SearchParams::from(const Options& o) {
  SearchParams p;
  p.threads = int(o.get_int("threads"));
  p.batch_size = int(o.get_int("batch_size"));
  p.cpuct_init = o.get_float("cpuct_init");
  p.cpuct_base = o.get_float("cpuct_base");
  p.u_init = o.get_float("u_init");
  p.u_min = o.get_float("u_min");
  p.u_base = o.get_float("u_base");
  p.q_init = o.get_float("q_init");
  p.virtual_loss = int(o.get_int("virtual_loss"));
  p.dirichlet_noise = o.get_bool("dirichlet_noise");
  p.dirichlet_epsilon = o.get_float("dirichlet_epsilon");
  p.dirichlet_alpha = o.get_float("dirichlet_alpha");
  p.check_enhancement = o.get_bool("check_enhancement");
  p.check_threshold = o.get_float("check_threshold");
  p.check_factor = o.get_float("check_factor");
  p.mate_in_one = o.get_bool("mate_in_one");
  p.mcts_solver = o.get_bool("mcts_solver");
  p.transpositions = o.get_bool("transpositions");
  p.reuse_tree = o.get_bool("reuse_tree");
  p.q_factor = o.get_float("q_factor");
  p.q_thresh_init = o.get_float("q_thresh_init");
  p.q_thresh_max = o.get_float("q_thresh_max");
  p.q_thresh_base = o.get_float("q_thresh_base");
  p.q_pv_depth = int(o.get_int("q_pv_depth"));
  p.temperature = o.get_float("temperature");
  p.temperature_moves = int(o.get_int("temperature_moves"));
  p.max_tree_nodes = o.get_int("max_tree_nodes");
  p.max_memory_mb = o.get_int("max_memory_mb");
  p.seed = std::uint64_t(o.get_int("seed"));
  return p;
}

}  // namespace zh
