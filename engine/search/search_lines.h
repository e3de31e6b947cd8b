#pragma once
// Reading the search's structure for the reports and the root prover, written once for both
// structures: the tree (positions are Nodes, a Node's children are Nodes) and the graph
// (positions are GraphNodes, a GraphNode's children are GraphEdges). Only the search's .cpp
// files include it; callers hold whatever the structure needs to be read (search.h).

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/search/graph.h"
#include "engine/search/node.h"
#include "engine/search/search.h"

namespace zh::search_lines {

// The position a move leads to: a tree child is that position; an edge points to it (or to
// nothing yet).
inline const Node* after(const Node* move) { return move; }
inline const GraphNode* after(const GraphEdge* move) { return move->child(); }

// Whether a move repeated a position on the line it was played on. Only graph edges carry the
// mark: a tree child is one line's own node, so the tree makes that child a terminal draw.
inline bool repeated(const Node*) { return false; }
inline bool repeated(const GraphEdge* move) { return move->repeated(); }

// The first reply to a move (its position's first child), or nullptr.
template <class M>
const M* first_reply(const M* move) {
  const auto* pos = after(move);
  return pos ? pos->first_child() : nullptr;
}

// Eq. (6): the Q of `move` read `depth` plies down its line of most visits, for the player who
// plays `move` (each ply down flips the side).
template <class M>
float q_down_line(const M* move, int depth) {
  const M* cur = move;
  float sign = 1;
  for (int d = 0; d < depth; ++d) {
    const M* best = nullptr;
    for (const M* g = first_reply(cur); g; g = g->next_sibling())
      if (!best || g->visits() > best->visits()) best = g;
    if (!best || best->visits() == 0) break;
    cur = best;
    sign = -sign;
  }
  return sign * cur->q();
}

// The root's statistics and one RootChild per legal move (moves nobody tried keep zeros).
template <class P>
void fill_root(const P* root, int q_pv_depth, SearchSnapshot& s) {
  s.root_expanded = true;
  s.root_visits = root->visits();
  // A node's Q is for the side that moved into it; the root's side to move sees its negation.
  if (root->visits() > 0) s.root_q = -root->q();
  s.root_proof = root->proof();
  s.root_proof_plies = root->proof_plies();
  const EvalBlock* b = root->block();
  s.children.resize(b->num_edges);
  const auto* c = root->first_child();
  for (int i = 0; i < b->num_edges; ++i) {
    RootChild& rc = s.children[i];
    rc.move = b->edges()[i].get_move();
    rc.prior = b->edges()[i].get_prior();
    if (!c || c->edge_index() != i) continue;
    rc.visits = c->visits();
    rc.q = c->q();
    // A root move marked repeated repeats a position of the game (reuse and selection keep the
    // graph's mark exact at the root): a draw, as the tree's terminal child.
    rc.proof = repeated(c) ? Proof::kDraw : c->proof();
    rc.proof_plies = c->proof_plies();
    if (rc.proof == Proof::kDraw) rc.q = 0;
    if (rc.proof == Proof::kLoss) rc.q = 1;
    if (rc.proof == Proof::kWin) rc.q = -1;
    if (q_pv_depth > 0 && rc.proof == Proof::kNone) rc.q = q_down_line(c, q_pv_depth);
    c = c->next_sibling();
  }
}

// The reply the principal variation follows from `pos`: the fastest proven win for the side to
// move there, else the most visited; nullptr where nothing was searched.
template <class P>
auto pv_reply(const P* pos) {
  using M = std::remove_pointer_t<decltype(pos->first_child())>;
  const M* best = nullptr;
  for (const M* c = pos->first_child(); c; c = c->next_sibling()) {
    if (c->proof() == Proof::kLoss) {  // a winning move for the side to move here
      if (!best || best->proof() != Proof::kLoss || c->proof_plies() < best->proof_plies())
        best = c;
      continue;
    }
    if (best && best->proof() == Proof::kLoss) continue;
    if (!best || c->visits() > best->visits()) best = c;
  }
  if (!best || (best->visits() == 0 && best->proof() == Proof::kNone)) return (const M*)nullptr;
  return best;
}

// Appends to `pv` the root move `first_edge` and the line the search expects after it; returns
// the position the line ends in (nullptr where the search has none), for a mate search to go on.
template <class P>
const P* main_line(const P* root, int first_edge, std::vector<Move>& pv) {
  pv.push_back(root->block()->edges()[first_edge].get_move());
  const auto* first = root->find_child(std::uint16_t(first_edge));
  const P* cur = first && !repeated(first) ? after(first) : nullptr;
  while (cur && cur->expanded() && pv.size() < 128) {
    const auto* best = pv_reply(cur);
    if (!best) break;
    pv.push_back(cur->block()->edges()[best->edge_index()].get_move());
    cur = after(best);
    if (repeated(best)) break;  // the line repeats: a draw, whatever the node holds
  }
  return cur;
}

// Up to `count` root moves not yet proven (nor repeating the game), most visits first; edges are
// in prior order, so ties keep the better prior. The root prover checks these for a mate.
template <class P>
std::vector<Move> most_visited_open(const P* root, int count) {
  std::vector<std::pair<std::uint32_t, int>> order;  // (visits, edge)
  const EvalBlock* b = root->block();
  const auto* c = root->first_child();
  for (int e = 0; e < b->num_edges; ++e) {
    const bool has = c && c->edge_index() == e;
    if (!has || (c->proof() == Proof::kNone && !repeated(c)))
      order.emplace_back(has ? c->visits() : 0, e);
    if (has) c = c->next_sibling();
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& x, const auto& y) { return x.first > y.first; });
  std::vector<Move> moves;
  for (std::size_t i = 0; i < order.size() && int(i) < count; ++i)
    moves.push_back(b->edges()[order[i].second].get_move());
  return moves;
}

}  // namespace zh::search_lines
