#pragma once
// Search's private types and helpers, shared by the .cpp files the search is split across
// (search.cpp: selection, expansion, backup; search_workers.cpp: the worker pool and the
// batches; search_tree.cpp: the tree's memory and reuse; search_prover.cpp: the root prover's
// hooks; search_snapshot.cpp: the reports; search_graph.cpp: the graph).
// Only those files include it.

#include <array>
#include <cstdint>
#include <exception>
#include <future>
#include <vector>

#include "engine/chess/position.h"
#include "engine/nn/evaluator.h"
#include "engine/search/expansion.h"
#include "engine/search/mate_search.h"
#include "engine/search/node.h"
#include "engine/search/params.h"
#include "engine/search/search.h"

namespace zh {

struct Search::Leaf {
  int path_begin;
  int path_length;
  int keys_begin;  // the keys of the positions below the root on its path, in Batch::keys
  int keys_length;
  std::uint64_t key;
};

// One mini-batch of leaves on its way through the evaluator.
struct Search::Batch {
  std::vector<Node*> paths;  // the paths of the queued leaves, back to back (the tree)
  // The graph's: the nodes of each path and the edges into them (none into the root).
  std::vector<GraphNode*> graph_nodes;
  std::vector<GraphEdge*> graph_edges;
  std::vector<std::uint64_t> keys;
  std::vector<Leaf> leaves;
  std::vector<EvalInput> inputs;
  std::vector<Evaluation> outputs;
  std::vector<EvalBlock*> blocks;
  std::vector<MateProof> mates;  // the leaf mate search's answer per leaf
  // The first `to_evaluate` leaves go to the evaluator; the rest were proven mates.
  int to_evaluate = 0;
  std::future<void> done;    // an evaluation started with evaluate_async()
  std::exception_ptr error;  // a failure of the evaluation or of building the blocks

  // Queues `leaf` for the evaluator with its position; returns its index.
  int push_leaf(const Leaf& leaf, const Position& pos, const std::array<Move, 2>& last_moves) {
    const int k = int(leaves.size());
    leaves.push_back(leaf);
    if (int(inputs.size()) <= k) {
      inputs.resize(k + 1);
      outputs.resize(k + 1);
      blocks.resize(k + 1);
      mates.resize(k + 1);
    }
    inputs[k].position = pos;
    inputs[k].repetitions = 0;  // a repetition below the root is a draw, never evaluated
    inputs[k].last_moves = last_moves;
    return k;
  }
  void clear() {
    leaves.clear();
    paths.clear();
    graph_nodes.clear();
    graph_edges.clear();
    keys.clear();
  }
};

struct Search::Worker {
  std::vector<Node*> path;               // the current descent
  std::vector<GraphNode*> graph_nodes;   // ...in the graph: its nodes
  std::vector<GraphEdge*> graph_edges;   // ...and the edge into each (none into the root)
  std::vector<std::uint64_t> path_keys;  // keys below the root on the current descent
  Position pos;
  std::array<Move, 2> last_moves{};  // the moves that led to pos (EvalInput::last_moves)
  MateSearch mate;
  std::vector<std::uint64_t> earlier;  // the game's keys and a leaf's path, for the mate search
  // params.batches_per_thread of them, used in turn: the oldest in flight is completed first.
  std::vector<Batch> batches;
};

inline ExpansionOptions expansion_options(const SearchParams& p) {
  ExpansionOptions o;
  o.check_enhancement = p.check_enhancement;
  o.check_threshold = p.check_threshold;
  o.check_factor = p.check_factor;
  return o;
}

// The value of a position without legal moves, for the side to move.
inline float terminal_value(const Position& pos) { return pos.in_check() ? -1.0f : 0.0f; }

}  // namespace zh
