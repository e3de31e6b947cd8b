// Search's reports: the snapshot the engine reads while a search runs (the root's moves with
// their statistics, the chosen move, its principal variation, the counters).
#include <cstddef>
#include <mutex>
#include <type_traits>
#include <vector>

#include "engine/search/mate_search.h"
#include "engine/search/move_choice.h"
#include "engine/search/search.h"

namespace zh {

void Search::fill_pv(Node* node, int first_edge, std::vector<Move>& pv) const {
  pv.push_back(node->block()->edges()[first_edge].get_move());
  Node* cur = node->find_child(std::uint16_t(first_edge));
  while (cur && cur->expanded() && pv.size() < 128) {
    Node* best = nullptr;
    for (Node* c = cur->first_child(); c; c = c->next_sibling()) {
      if (c->proof() == Proof::kLoss) {  // a winning move for the side to move here
        if (!best || best->proof() != Proof::kLoss || c->proof_plies() < best->proof_plies())
          best = c;
        continue;
      }
      if (best && best->proof() == Proof::kLoss) continue;
      if (!best || c->visits() > best->visits()) best = c;
    }
    if (!best || (best->visits() == 0 && best->proof() == Proof::kNone)) break;
    pv.push_back(cur->block()->edges()[best->edge_index()].get_move());
    cur = best;
  }
  // A mate proven by a mate search ends in a node the tree never searched below: the line on
  // from there comes from the mate search, so the PV (and the ponder move) show the mate.
  if (cur && (cur->proof() == Proof::kWin || cur->proof() == Proof::kLoss) &&
      cur->proof_plies() > 0 && !cur->expanded())
    append_mate_line(cur->proof() == Proof::kWin, cur->proof_plies(), pv);
}

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
  if (graph_) {
    snapshot_graph(s);
    return s;
  }
  s.root_expanded = true;
  s.root_visits = root_->visits();
  // A node's Q is for the side that moved into it; the root's side to move sees its negation.
  if (root_->visits() > 0) s.root_q = -root_->q();
  s.root_proof = root_->proof();
  s.root_proof_plies = root_->proof_plies();
  const EvalBlock* b = root_->block();
  s.children.resize(b->num_edges);
  Node* c = root_->first_child();
  for (int i = 0; i < b->num_edges; ++i) {
    RootChild& rc = s.children[i];
    rc.move = b->edges()[i].get_move();
    rc.prior = b->edges()[i].get_prior();
    if (c && c->edge_index() == i) {
      rc.visits = c->visits();
      rc.q = c->q();
      rc.proof = c->proof();
      rc.proof_plies = c->proof_plies();
      if (rc.proof == Proof::kDraw) rc.q = 0;
      if (rc.proof == Proof::kLoss) rc.q = 1;
      if (rc.proof == Proof::kWin) rc.q = -1;
      // Eq. (6): the Q a few plies down the move's main line, when asked for.
      if (params_.q_pv_depth > 0 && rc.proof == Proof::kNone) {
        Node* cur = c;
        float sign = 1;
        for (int d = 0; d < params_.q_pv_depth; ++d) {
          Node* best = nullptr;
          for (Node* g = cur->first_child(); g; g = g->next_sibling())
            if (!best || g->visits() > best->visits()) best = g;
          if (!best || best->visits() == 0) break;
          cur = best;
          sign = -sign;
        }
        rc.q = sign * cur->q();
      }
      c = c->next_sibling();
    }
  }
  s.best = choose_move(s.children, s.root_visits, params_.move_choice());
  if (s.best >= 0) fill_pv(root_, s.best, s.pv);
  return s;
}

namespace {

// The child for `move` of an expanded node (a Node or a GraphNode), or nullptr.
template <class N>
auto* child_for(const N* node, Move move) {
  using Child = std::remove_pointer_t<decltype(node->first_child())>;
  if (!node || !node->expanded()) return static_cast<Child*>(nullptr);
  const EvalBlock* b = node->block();
  for (int e = 0; e < b->num_edges; ++e)
    if (b->edges()[e].move == move.raw()) return node->find_child(std::uint16_t(e));
  return static_cast<Child*>(nullptr);
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
