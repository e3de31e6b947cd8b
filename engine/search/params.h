#pragma once
// Every search setting, read once per `go` from the typed options (engine/options.h), where
// each is declared with its default (the CrazyAra paper's values) and help text. The "eq. (N)"
// and "paper 9.2.x" of the help texts are explained in docs/search-formulas.md.

#include <cstdint>

#include "engine/options.h"
#include "engine/search/move_choice.h"

namespace zh {

struct SearchParams {
  int threads;
  int batch_size;
  int batches_per_thread;  // mini-batches a thread keeps at the evaluator at once
  // PUCT, eqs. (3), (10), (11)
  double cpuct_init;
  double cpuct_base;
  double u_init;
  double u_min;
  double u_base;
  double q_init;      // Q of an unvisited child
  bool fpu_relative;  // ...or the parent's Q less fpu_reduction * sqrt(visited prior)
  double fpu_reduction;
  int virtual_loss;
  int virtual_visit_threshold;  // below it a pending playout is a virtual visit, not a loss
  // Root Dirichlet noise
  bool dirichlet_noise;
  double dirichlet_epsilon;
  double dirichlet_alpha;
  // Eq. (12) check enhancement
  bool check_enhancement;
  double check_threshold;
  double check_factor;
  // Mate searches beside the tree (design 2d): a short one at every new leaf, a proof-number
  // search at the root in a thread of its own
  int leaf_mate_plies;  // 0 = off, 1 = mate in one (paper 9.2.7), 3, 5, ...
  std::int64_t leaf_mate_nodes;
  double root_mate_share;  // of one core; 0 = off
  int root_mate_plies;
  bool mcts_solver;
  bool transpositions;
  bool graph;  // Monte-Carlo graph search (graph.h) instead of a tree
  bool reuse_tree;
  // Final move choice, eqs. (5)-(7)
  double q_factor;
  double q_thresh_init;
  double q_thresh_max;
  double q_thresh_base;
  int q_pv_depth;      // eq. (6): 0 = off
  double temperature;  // of the opening sampling that SearchLimits::sampled_moves asks for
  // Caps
  std::int64_t max_tree_nodes;  // 0 = none
  std::int64_t max_memory_mb;
  std::uint64_t seed;  // 0 = a fresh random seed per engine

  static void declare(Options& options);
  static SearchParams from(const Options& options);
  // The settings of the final move choice (eqs. 5-7).
  MoveChoiceParams move_choice() const {
    return {q_factor, q_thresh_init, q_thresh_max, q_thresh_base};
  }
};

}  // namespace zh
