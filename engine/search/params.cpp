#include "engine/search/params.h"

#include "engine/option_table.h"

namespace zh {

namespace {

const OptionTable<SearchParams> kOptions{
    "search",
    {
        {"threads", &SearchParams::threads, Int{2, 1, 256},
         "search threads; each collects mini-batches for the evaluator", "Threads"},
        {"batch_size", &SearchParams::batch_size, Int{16, 1, 1024},
         "leaves each search thread collects per evaluation"},
        {"batches_per_thread", &SearchParams::batches_per_thread, Int{1, 1, 8},
         "mini-batches each search thread keeps at the evaluator at once: with 2 it selects the "
         "next while a device runs the last (1 on a CPU, where evaluating takes the cores)"},
        {"cpuct_init", &SearchParams::cpuct_init, Float{2.5, 0, 100},
         "eq. (3): exploration constant at the start"},
        {"cpuct_base", &SearchParams::cpuct_base, Float{19652, 1, 1e9},
         "eq. (3): visits over which exploration grows"},
        {"u_init", &SearchParams::u_init, Float{1.0, 0.01, 100},
         "eqs. (10)(11): U divisor at the first visit"},
        {"u_min", &SearchParams::u_min, Float{0.25, 0.01, 100},
         "eqs. (10)(11): U divisor after many visits"},
        {"u_base", &SearchParams::u_base, Float{1965, 1, 1e9},
         "eqs. (10)(11): visits over which the divisor moves"},
        {"q_init", &SearchParams::q_init, Float{-1.0, -1, 1},
         "Q value of a child that was never visited (unless fpu_relative)"},
        {"fpu_relative", &SearchParams::fpu_relative, Bool{false},
         "an unvisited child's Q is its parent's Q less fpu_reduction times the square root of "
         "the prior its visited siblings hold, instead of q_init"},
        {"fpu_reduction", &SearchParams::fpu_reduction, Float{0.3, 0, 2},
         "with fpu_relative: how far below the parent's Q an unvisited child starts"},
        {"virtual_loss", &SearchParams::virtual_loss, Int{3, 0, 1000},
         "losses charged to a path while its leaf is pending"},
        {"virtual_visit_threshold", &SearchParams::virtual_visit_threshold, Int{0, 0, 1 << 30},
         "a pending playout through a child with fewer visits than this counts as a visit at the "
         "child's own Q (a virtual visit, CrazyAra's rule with 1000) instead of virtual_loss "
         "losses; 0 = virtual loss everywhere"},
        {"dirichlet_noise", &SearchParams::dirichlet_noise, Bool{false},
         "add Dirichlet noise to the root priors (training)"},
        {"dirichlet_epsilon", &SearchParams::dirichlet_epsilon, Float{0.25, 0, 1},
         "share of the noise in the root priors"},
        {"dirichlet_alpha", &SearchParams::dirichlet_alpha, Float{0.2, 0.001, 10},
         "Dirichlet concentration of the noise"},
        {"check_enhancement", &SearchParams::check_enhancement, Bool{true},
         "eq. (12): raise the prior of checking moves below check_threshold"},
        {"check_threshold", &SearchParams::check_threshold, Float{0.1, 0, 1},
         "eq. (12): priors below this are raised"},
        {"check_factor", &SearchParams::check_factor, Float{0.5, 0, 10},
         "eq. (12): raise by this times the top prior"},
        {"leaf_mate_plies", &SearchParams::leaf_mate_plies, Int{3, 0, 15},
         "plies of the checks-only mate search at every new leaf, before the network sees it "
         "(1 = mate in one, 3 = mate in two, ...; 0 = off); a mate found is a proven win"},
        {"leaf_mate_nodes", &SearchParams::leaf_mate_nodes, Int{2000, 1, 100000000},
         "positions the leaf mate search may play per leaf"},
        {"root_mate_share", &SearchParams::root_mate_share, Float{0.1, 0, 1},
         "share of one core for the proof-number mate search at the root (long mates for us, "
         "and the opponent's mate after each of the tree's best moves); 0 = off"},
        {"root_mate_plies", &SearchParams::root_mate_plies, Int{33, 1, 255},
         "longest mate the root proof-number search tries to prove, in plies"},
        {"mcts_solver", &SearchParams::mcts_solver, Bool{true},
         "propagate proven wins, losses and draws up the tree"},
        {"transpositions", &SearchParams::transpositions, Bool{true},
         "the tree's evaluation cache: share network evaluations between transposed positions "
         "(paper 9.2.5); the graph always shares a position's node"},
        {"graph", &SearchParams::graph, Bool{false},
         "Monte-Carlo graph search: one node per position (with the counters the network sees), "
         "shared by every move order that reaches it, instead of a tree (docs/search-formulas.md)"},
        {"reuse_tree", &SearchParams::reuse_tree, Bool{true},
         "keep the subtree of the moves played between searches"},
        {"q_factor", &SearchParams::q_factor, Float{0.7, 0, 1},
         "eq. (7): weight of Q against visits in the move choice"},
        {"q_thresh_init", &SearchParams::q_thresh_init, Float{0.5, 0, 1},
         "eq. (5): visit share threshold at the start"},
        {"q_thresh_max", &SearchParams::q_thresh_max, Float{0.9, 0, 1},
         "eq. (5): visit share threshold after many visits"},
        {"q_thresh_base", &SearchParams::q_thresh_base, Float{1965, 1, 1e9},
         "eq. (5): visits over which it moves"},
        {"q_pv_depth", &SearchParams::q_pv_depth, Int{0, 0, 5},
         "eq. (6): take Q from this depth of each move's line (0 = the move's own Q)"},
        {"temperature", &SearchParams::temperature, Float{0.07, 0.001, 10},
         "move sampling temperature of the first moves (the bot samples its first 4 against humans "
         "when game.human_opening_temperature is on)"},
        {"max_tree_nodes", &SearchParams::max_tree_nodes, Int{0, 0, std::int64_t(1) << 40},
         "stop the search when the tree has this many nodes (0 = no cap)"},
        {"max_memory_mb", &SearchParams::max_memory_mb, Int{2048, 16, 1 << 20},
         "stop the search when the tree uses this much memory (MiB)", "Hash"},
        {"seed", &SearchParams::seed, Int{0, 0, std::int64_t(1) << 62},
         "seed for noise and move sampling (0 = random)"},
    }};

}  // namespace

void SearchParams::declare(Options& options) { kOptions.declare(options); }

SearchParams SearchParams::from(const Options& options) { return kOptions.read(options); }

}  // namespace zh
