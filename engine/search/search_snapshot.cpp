// Search's reports: the snapshot the engine reads while a search runs (the root's moves with
// their statistics, the chosen move, its principal variation, the counters).
#include <cstddef>
#include <mutex>
#include <type_traits>
#include <vector>

#include "engine/search/mate_search.h"
#include "engine/search/move_choice.h"
#include "engine/search/search.h"
#include "engine/search/search_lines.h"

namespace zh {

void Search::append_mate_line(bool win, int plies, std::vector<Move>& pv) const {
  if (pv.size() >= 128) return;
  Position pos = root_pos_;
  for (const Move m : pv) pos.do_move(m);
  MateSearch mate;
  for (const Move m : mate.line(pos, plies, win)) pv.push_back(m);
}

SearchSnapshot Search::snapshot() const {
  std::lock_guard lock(mutex_);
  SearchSnapshot s;
  s.playouts = playouts_;
  s.evaluations = evaluations_;
  s.seldepth = seldepth_;
  s.tree_nodes = tree_nodes_;
  s.expanded_nodes = expanded_nodes_;
  s.tree_bytes = bytes_locked();
  s.memory_cap_bytes = std::size_t(params_.max_memory_mb) << 20;
  s.reason = reason_;
  s.error = error_;
  if (!root_expanded_locked()) return s;
  if (graph_)
    search_lines::fill_root(groot_, params_.q_pv_depth, s);
  else
    search_lines::fill_root(root_, params_.q_pv_depth, s);
  s.best = choose_move(s.children, s.root_visits, params_.move_choice());
  if (s.best < 0) return s;
  auto line = [&](const auto* root) {
    const auto* end = search_lines::main_line(root, s.best, s.pv);
    // A mate proven by a mate search ends in a position the search never expanded: the line
    // on from there comes from the mate search, so the PV (and the ponder move) show the mate.
    if (end && (end->proof() == Proof::kWin || end->proof() == Proof::kLoss) &&
        end->proof_plies() > 0 && !end->expanded())
      append_mate_line(end->proof() == Proof::kWin, end->proof_plies(), s.pv);
  };
  if (graph_)
    line(groot_);
  else
    line(root_);
  return s;
}

namespace {

// The child for `move` of an expanded node (a Node or a GraphNode), or nullptr.
template <class N>
auto* child_for(const N* node, Move move) {
  using Child = std::remove_pointer_t<decltype(node->first_child())>;
  if (!node || !node->expanded()) return static_cast<Child*>(nullptr);
  const int e = node->block()->edge_of(move);
  return e < 0 ? static_cast<Child*>(nullptr) : node->find_child(std::uint16_t(e));
}

}  // namespace

LineStats Search::line_stats(const std::vector<Move>& moves) const {
  std::lock_guard lock(mutex_);
  LineStats s;
  if (graph_) {
    const GraphNode* node = groot_;
    const GraphEdge* edge = nullptr;
    for (const Move m : moves) {
      edge = child_for(node, m);
      if (!edge) return s;
      node = edge->child();
    }
    s.found = true;
    if (edge) {
      s.edge_visits = edge->visits();
      s.edge_q = edge->q();
      s.repeated = edge->repeated();
    }
    s.node = node;
    if (node) {
      s.node_visits = node->visits();
      s.proof = node->proof();
    }
    return s;
  }
  const Node* node = root_;
  for (const Move m : moves) {
    node = child_for(node, m);
    if (!node) return s;
  }
  s.found = true;
  s.node = node;
  if (node) {
    s.edge_visits = s.node_visits = node->visits();
    s.edge_q = node->q();
    s.proof = node->proof();
  }
  return s;
}

}  // namespace zh
