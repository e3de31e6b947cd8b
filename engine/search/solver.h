#pragma once
// The MCTS solver: game-theoretic results proven at the leaves (mate, stalemate, repetition, a
// mate found by a mate search) carried up the tree, so selection stops spending visits on decided
// moves and the search can end once the root is decided. Free functions over Node, under the
// tree lock: anything that proves a node (the terminal tests, the leaf mate search, the root
// prover) sets the node's proof and then lets prove_ancestors() or try_prove() do the rest.
//
// A proof is from the point of view of the side to move at the node: a node is won when one
// child is lost (for its own side to move), in one ply more than the fastest such child; it is
// lost when every legal move has a child and all of them are won, in one ply more than the
// slowest; a drawn child with no winning one makes it a draw once every child is proven.

#include "engine/search/node.h"

namespace zh {

// A node no move can be played from (no legal move, or a repetition scored as a draw), proven
// `proof` at distance 0.
void make_terminal(Node* node, Proof proof);

// Proves an expanded, unproven node from its children's proofs. Returns whether it did.
bool try_prove(Node* node);

// After the leaf path[length - 1] got its proof: proves its ancestors, nearest first, for as
// long as each one follows from its children.
void prove_ancestors(Node* const* path, int length);

}  // namespace zh
