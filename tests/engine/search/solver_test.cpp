#include "engine/search/solver.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace zh {
namespace {

// A hand-built tree: an expanded node with `edges` legal moves and children for some of them.
class Tree {
 public:
  Tree() : root_(new Node(0)) {}
  ~Tree() { delete_subtree(root_); }
  Node* root() { return root_; }
  static void expand(Node* node, int edges) {
    EvalBlock* b = EvalBlock::create(edges);
    for (int e = 0; e < edges; ++e) b->edges()[e] = Edge{std::uint16_t(e + 1), 0};
    b->num_edges = std::uint16_t(edges);
    node->set_block(b);
  }
  // Adds the child for `edge` in its place (children stay in edge order), proven `proof` in
  // `plies`.
  static Node* add(Node* parent, int edge, Proof proof = Proof::kNone, int plies = 0) {
    Node* prev = nullptr;
    for (Node* c = parent->first_child(); c && c->edge_index() < edge; c = c->next_sibling())
      prev = c;
    Node* child = new Node(std::uint16_t(edge));
    parent->link_child(prev, child);
    child->set_proof(proof, plies);
    return child;
  }

 private:
  Node* root_;
};

TEST(Solver, MakeTerminalIsAProofAtDistanceZero) {
  Node n(0);
  make_terminal(&n, Proof::kLoss);
  EXPECT_TRUE(n.terminal());
  EXPECT_EQ(n.proof(), Proof::kLoss);
  EXPECT_EQ(n.proof_plies(), 0);
}

TEST(Solver, OneLostChildWinsByTheFastestOne) {
  Tree t;
  Tree::expand(t.root(), 4);
  Tree::add(t.root(), 0, Proof::kLoss, 4);  // a win in 5
  Tree::add(t.root(), 1);                   // unproven: does not matter
  Tree::add(t.root(), 2, Proof::kLoss, 2);  // a win in 3: the one that counts
  ASSERT_TRUE(try_prove(t.root()));
  EXPECT_EQ(t.root()->proof(), Proof::kWin);
  EXPECT_EQ(t.root()->proof_plies(), 3);
}

TEST(Solver, LostOnlyWhenEveryMoveHasAWonChild) {
  Tree t;
  Tree::expand(t.root(), 3);
  Tree::add(t.root(), 0, Proof::kWin, 1);
  Tree::add(t.root(), 2, Proof::kWin, 5);
  EXPECT_FALSE(try_prove(t.root()));  // move 1 has no child yet: it may hold
  EXPECT_EQ(t.root()->proof(), Proof::kNone);
  Tree::add(t.root(), 1, Proof::kWin, 3);
  ASSERT_TRUE(try_prove(t.root()));
  EXPECT_EQ(t.root()->proof(), Proof::kLoss);
  EXPECT_EQ(t.root()->proof_plies(), 6);  // the slowest loss, one ply more
}

TEST(Solver, AnUnprovenChildKeepsTheNodeOpen) {
  Tree t;
  Tree::expand(t.root(), 2);
  Tree::add(t.root(), 0, Proof::kWin, 1);
  Tree::add(t.root(), 1);
  EXPECT_FALSE(try_prove(t.root()));
}

TEST(Solver, ADrawnChildWithoutAWinIsADraw) {
  Tree t;
  Tree::expand(t.root(), 2);
  Tree::add(t.root(), 0, Proof::kWin, 1);
  Tree::add(t.root(), 1, Proof::kDraw, 0);
  ASSERT_TRUE(try_prove(t.root()));
  EXPECT_EQ(t.root()->proof(), Proof::kDraw);
}

TEST(Solver, UnexpandedOrProvenNodesAreLeftAlone) {
  Node leaf(0);
  EXPECT_FALSE(try_prove(&leaf));  // no moves known yet
  Tree t;
  Tree::expand(t.root(), 1);
  Tree::add(t.root(), 0, Proof::kLoss, 0);
  t.root()->set_proof(Proof::kDraw, 0);
  EXPECT_FALSE(try_prove(t.root()));  // a proof is never overwritten
  EXPECT_EQ(t.root()->proof(), Proof::kDraw);
}

TEST(Solver, AProofClimbsUntilAnAncestorStaysOpen) {
  // root (2 moves) -> a (1 move) -> b (1 move) -> mate: b wins in 1, a loses in 2, the root
  // wins in 3 through a. Then a second path whose leaf is proven drawn stops at the parent
  // with a move still open.
  Tree t;
  Node* root = t.root();
  Tree::expand(root, 2);
  Node* a = Tree::add(root, 0);
  Tree::expand(a, 1);
  Node* b = Tree::add(a, 0);
  Tree::expand(b, 1);
  Node* mated = Tree::add(b, 0);
  make_terminal(mated, Proof::kLoss);
  const std::vector<Node*> path = {root, a, b, mated};
  prove_ancestors(path.data(), int(path.size()));
  EXPECT_EQ(b->proof(), Proof::kWin);
  EXPECT_EQ(b->proof_plies(), 1);
  EXPECT_EQ(a->proof(), Proof::kLoss);
  EXPECT_EQ(a->proof_plies(), 2);
  EXPECT_EQ(root->proof(), Proof::kWin);
  EXPECT_EQ(root->proof_plies(), 3);

  Tree u;
  Tree::expand(u.root(), 1);
  Node* c = Tree::add(u.root(), 0);
  Tree::expand(c, 2);
  Node* repeated = Tree::add(c, 0);
  make_terminal(repeated, Proof::kDraw);
  const std::vector<Node*> open = {u.root(), c, repeated};
  prove_ancestors(open.data(), int(open.size()));
  EXPECT_EQ(c->proof(), Proof::kNone);  // its other move may still win
  EXPECT_EQ(u.root()->proof(), Proof::kNone);
}

}  // namespace
}  // namespace zh
