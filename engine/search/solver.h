#pragma once
// The MCTS solver: game-theoretic results proven at the leaves (mate, stalemate, repetition, a
// mate found by a mate search) carried up the tree, so selection stops spending visits on decided
// moves and the search can end once the root is decided. Free functions over Node (under the
// tree lock) and GraphNode (whose proofs are atomic words, graph.h): anything that proves a
// node (the terminal tests, the leaf mate search, the root prover) sets the node's proof and
// then lets prove_ancestors() or try_prove() do the rest.
//
// A proof is from the point of view of the side to move at the node: a node is won when one
// child is lost (for its own side to move), in one ply more than the fastest such child; it is
// lost when every legal move has a child and all of them are won, in one ply more than the
// slowest; a drawn child with no winning one makes it a draw once every child is proven.

//
// The same rules serve the tree (Node) and the graph (GraphNode, whose children are GraphEdges
// that show their node's proof, or none for a move that repeated on some path: graph.h).

#include <algorithm>
#include <climits>

#include "engine/search/graph.h"
#include "engine/search/node.h"

namespace zh {

// A node no move can be played from (no legal move, or a repetition scored as a draw), proven
// `proof` at distance 0.
template <class N>
void make_terminal(N* node, Proof proof) {
  node->set_terminal();
  node->set_proof(proof, 0);
}

// Proves an expanded, unproven node from its children's proofs. Returns whether it did.
template <class N>
bool try_prove(N* node) {
  if (!node->expanded() || node->proof() != Proof::kNone) return false;
  int count = 0;
  bool all_proven = true;
  bool any_draw = false;
  int min_win = INT_MAX;
  int max_loss = 0;
  for (auto* c = node->first_child(); c; c = c->next_sibling()) {
    ++count;
    switch (c->proof()) {
      case Proof::kLoss:
        min_win = std::min(min_win, c->proof_plies());
        break;
      case Proof::kWin:
        max_loss = std::max(max_loss, c->proof_plies());
        break;
      case Proof::kDraw:
        any_draw = true;
        break;
      case Proof::kNone:
        all_proven = false;
        break;
    }
  }
  if (min_win != INT_MAX) {
    node->set_proof(Proof::kWin, min_win + 1);
    return true;
  }
  if (!all_proven || count < node->num_edges()) return false;
  if (any_draw)
    node->set_proof(Proof::kDraw, 0);
  else
    node->set_proof(Proof::kLoss, max_loss + 1);
  return true;
}

// After the leaf path[length - 1] got its proof: proves its ancestors, nearest first, for as
// long as each one follows from its children.
template <class N>
void prove_ancestors(N* const* path, int length) {
  for (int i = length - 2; i >= 0; --i)
    if (!try_prove(path[i])) break;
}

}  // namespace zh
