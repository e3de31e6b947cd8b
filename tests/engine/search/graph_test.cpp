// The Monte-Carlo graph (search.graph): transpositions share one node, repetitions are draws of
// the playout that never read the shared node, the solver and both mate searches prove what
// the tree proves, reuse keeps the reachable graph and frees the rest, and the graph's own
// audit (references, reachability) holds with threads, batches in flight and reuse.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/chess/notation.h"
#include "engine/nn/backends/material.h"
#include "engine/nn/backends/uniform.h"
#include "engine/nn/inference_service.h"
#include "engine/search/search.h"
#include "tests/engine/search/mate_suite.h"
#include "tests/engine/search/search_test_util.h"

namespace zh {
namespace {

using test::default_params;
using test::game_from;
using test::run_search;

SearchParams graph_params(int threads = 1) {
  SearchParams p = default_params(threads);
  p.graph = true;
  return p;
}

// Values from `inner`; the priors of the listed moves (UCI) 50 times the others'.
class FavouriteMoves final : public Evaluator {
 public:
  FavouriteMoves(std::shared_ptr<Evaluator> inner, std::set<std::string> moves)
      : inner_(std::move(inner)), moves_(std::move(moves)) {}
  std::string name() const override { return "favourite-moves"; }
  void evaluate(std::span<const EvalInput> in, std::span<Evaluation> out) override {
    inner_->evaluate(in, out);
    for (Evaluation& e : out) {
      float sum = 0;
      for (MovePrior& p : e.priors) {
        if (moves_.count(to_uci(p.move))) p.prior *= 50;
        sum += p.prior;
      }
      for (MovePrior& p : e.priors) p.prior /= sum;
    }
  }

 private:
  std::shared_ptr<Evaluator> inner_;
  std::set<std::string> moves_;
};

std::vector<Move> line(Position pos, std::initializer_list<const char*> ucis) {
  std::vector<Move> moves;
  for (const char* u : ucis) {
    moves.push_back(parse_uci(pos, u));
    pos.do_move(moves.back());
  }
  return moves;
}

// The graph's invariants after a search: every backup counted once at each node and edge, no
// virtual loss or pending leaf left, references equal to the edges into each node, and nothing
// in the table that neither the root nor the garbage reaches.
void expect_sound(const Search& search) {
  const TreeAudit a = search.audit_tree();
  EXPECT_GT(a.nodes, 1);
  EXPECT_EQ(a.in_flight, 0) << "virtual loss left";
  EXPECT_EQ(a.visit_mismatches, 0) << "a backup lost or counted twice";
  EXPECT_EQ(a.pending, 0);
  EXPECT_EQ(a.ref_mismatches, 0) << "a reference count that is not its edges";
  EXPECT_EQ(a.unreachable, 0) << "a node nothing reaches: lost memory";
}

TEST(Graph, TwoDropOrdersReachOneNodeWithTheVisitsOfBoth) {
  // N@f3 Kd8 B@c4 and B@c4 Kd8 N@f3 are one position (same counters too). Every value is 0
  // (uniform evaluator, no mate to find), so the second parent's edge needs exactly one
  // correcting backup (its first visit) and every other visit of either edge descends: the
  // node has the visits of both edges less that one.
  const Game g = game_from("4k3/8/8/8/8/8/8/4K3[NB] w - - 0 1");
  auto evaluator = std::make_shared<FavouriteMoves>(std::make_shared<UniformEvaluator>(),
                                                    std::set<std::string>{"N@f3", "B@c4", "e8d8"});
  const auto a = line(g.position(), {"N@f3", "e8d8", "B@c4"});
  const auto b = line(g.position(), {"B@c4", "e8d8", "N@f3"});
  SearchParams p = graph_params();
  p.leaf_mate_plies = 0;
  p.root_mate_share = 0;
  Search graph(evaluator);
  run_search(graph, g, p, 3000);
  const LineStats la = graph.line_stats(a), lb = graph.line_stats(b);
  ASSERT_TRUE(la.found && lb.found);
  ASSERT_NE(la.node, nullptr);
  EXPECT_EQ(la.node, lb.node);
  EXPECT_GT(la.edge_visits, 1u);
  EXPECT_GT(lb.edge_visits, 1u);
  EXPECT_EQ(la.node_visits, la.edge_visits + lb.edge_visits - 1);
  expect_sound(graph);
  EXPECT_GE(graph.audit_tree().shared, 1);

  // The tree keeps two copies, each with its own visits.
  p.graph = false;
  Search tree(evaluator);
  run_search(tree, g, p, 3000);
  const LineStats ta = tree.line_stats(a), tb = tree.line_stats(b);
  ASSERT_TRUE(ta.found && tb.found && ta.node && tb.node);
  EXPECT_NE(ta.node, tb.node);
}

TEST(Graph, ARepetitionIsADrawOfTheEdgeAndNeverReadsTheSharedNode) {
  // White is a queen up, so every position is worth much to White except a repetition. The
  // knights' dance back to the root repeats the game's position: that edge must hold exactly
  // a draw, and no node is ever made for (or read from) the position it reaches.
  const Game g = game_from("1n2k3/8/8/8/8/8/8/3QK1N1[] w - - 0 1");
  auto evaluator = std::make_shared<FavouriteMoves>(
      std::make_shared<MaterialEvaluator>(), std::set<std::string>{"g1f3", "b8c6", "f3g1", "c6b8"});
  SearchParams p = graph_params();
  p.leaf_mate_plies = 0;
  p.root_mate_share = 0;
  Search search(evaluator);
  const auto s = run_search(search, g, p, 4000);
  EXPECT_GT(s.root_q, 0.2f);
  const LineStats rep = search.line_stats(line(g.position(), {"g1f3", "b8c6", "f3g1", "c6b8"}));
  ASSERT_TRUE(rep.found);
  EXPECT_GT(rep.edge_visits, 0u);
  EXPECT_TRUE(rep.repeated);
  EXPECT_EQ(rep.edge_q, 0.0f);
  EXPECT_EQ(rep.node, nullptr);
  // One ply earlier nothing repeats yet.
  EXPECT_FALSE(search.line_stats(line(g.position(), {"g1f3", "b8c6", "f3g1"})).repeated);
  expect_sound(search);
}

TEST(Graph, AMoveBackToAGamePositionIsAProvenDrawAtTheRoot) {
  Game g;
  for (const char* m : {"g1f3", "g8f6", "f3g1", "f6g8"}) g.play_uci(m);
  Search search(std::make_shared<UniformEvaluator>());
  const auto s = run_search(search, g, graph_params(), 3000);
  const Move back = parse_uci(g.position(), "g1f3");
  const Move fresh = parse_uci(g.position(), "b1c3");
  for (const auto& c : s.children) {
    if (c.move == back) {
      EXPECT_GT(c.visits, 0u);
      EXPECT_EQ(c.proof, Proof::kDraw);
      EXPECT_EQ(c.q, 0.0f);
    }
    if (c.move == fresh) {
      EXPECT_EQ(c.proof, Proof::kNone);
    }
  }
}

// Runs the tree and the graph on the mate suite's first positions with `base`'s settings and
// expects the same proof, never a mate faster than the shortest one (Fairy-Stockfish's), a
// mating first move, and with `same_length` as fast a mate as the tree's (the solver alone
// proves whichever mate it meets first). Returns how many it proved.
int expect_the_same_proofs(const SearchParams& base, std::int64_t playouts, bool same_length) {
  const auto suite = test::mate_suite();
  EXPECT_GE(suite.size(), 12u);
  int proven = 0;
  for (std::size_t i = 0; i < std::min<std::size_t>(12, suite.size()); ++i) {
    SCOPED_TRACE(suite[i].first);
    const Game g = game_from(suite[i].first.c_str());
    SearchParams tp = base, gp = base;
    tp.graph = false;
    gp.graph = true;
    Search tree(std::make_shared<UniformEvaluator>()), graph(std::make_shared<UniformEvaluator>());
    const auto t = run_search(tree, g, tp, playouts);
    const auto s = run_search(graph, g, gp, playouts);
    EXPECT_EQ(s.root_proof, t.root_proof);
    if (t.root_proof == Proof::kWin) {
      ++proven;
      if (same_length) {
        EXPECT_EQ(s.root_proof_plies, t.root_proof_plies);
      }
      EXPECT_GE(s.root_proof_plies, 2 * suite[i].second - 1);
      EXPECT_EQ(s.reason, StopReason::kSolved);
      EXPECT_GE(s.best, 0);
      if (s.best >= 0) {
        EXPECT_EQ(s.children[s.best].proof, Proof::kLoss);  // for the mated side
      }
    }
    expect_sound(graph);
  }
  return proven;
}

TEST(Graph, ProvesTheMatesTheTreeProves) {
  // With every mate search (the leaf's finds these at the root, the prover the longer ones).
  EXPECT_GE(expect_the_same_proofs(default_params(), 30000, true), 10);
}

TEST(Graph, TheSolverAloneProvesTheMatesTheTreeProves) {
  // Mate in one at the leaves only, no prover: the solver over the graph does the rest.
  SearchParams p = default_params();
  p.leaf_mate_plies = 1;
  p.root_mate_share = 0;
  EXPECT_GE(expect_the_same_proofs(p, 20000, false), 3);
}

TEST(Graph, MateInTwoWithThreadsAndBatchesInFlight) {
  const Game g = game_from("5r1k/6pp/8/8/2B5/8/5PPP/6K1[QN] w - - 0 1");
  for (int threads : {1, 2, 4}) {
    SCOPED_TRACE(threads);
    SearchParams p = graph_params(threads);
    p.batches_per_thread = threads == 4 ? 2 : 1;
    p.leaf_mate_plies = 1;  // the solver proves it, not the root's mate search
    p.root_mate_share = 0;
    Search search(std::make_shared<UniformEvaluator>());
    const auto s = run_search(search, g, p, 50000);
    EXPECT_EQ(s.reason, StopReason::kSolved);
    EXPECT_EQ(s.root_proof, Proof::kWin);
    EXPECT_EQ(s.root_proof_plies, 3);
    EXPECT_EQ(to_uci(s.children[s.best].move), "Q@g8");
    const TreeAudit a = search.audit_tree();
    EXPECT_EQ(a.in_flight, 0);
    EXPECT_EQ(a.pending, 0);
    EXPECT_EQ(a.ref_mismatches, 0);
  }
}

TEST(Graph, CheckmatedAndStalematedRootsHaveNoMove) {
  Search search(std::make_shared<UniformEvaluator>());
  auto s =
      run_search(search, game_from("R5k1/5ppp/8/8/8/8/8/6K1[] b - - 0 1"), graph_params(), 100);
  EXPECT_EQ(s.best, -1);
  EXPECT_EQ(s.root_proof, Proof::kLoss);
  s = run_search(search, game_from("7k/5Q2/6K1/8/8/8/8/8[] b - - 0 1"), graph_params(), 100);
  EXPECT_EQ(s.best, -1);
  EXPECT_EQ(s.root_proof, Proof::kDraw);
}

TEST(Graph, ReuseKeepsTheReachableGraphAndFreesTheRestLater) {
  Search search(std::make_shared<UniformEvaluator>());
  Game g;
  const SearchParams p = graph_params();
  const auto first = run_search(search, g, p, 3000);
  ASSERT_GE(first.pv.size(), 2u);
  g.play(first.pv[0]);
  g.play(first.pv[1]);
  const std::uint32_t kept = search.set_game(g, p);
  EXPECT_GT(kept, 1u);
  EXPECT_EQ(search.snapshot().root_visits, kept);
  // Only references moved: the bot's move path does not wait for the freeing.
  EXPECT_EQ(search.snapshot().tree_nodes, first.tree_nodes);
  const TreeAudit before = search.audit_tree();
  EXPECT_EQ(before.ref_mismatches, 0);
  EXPECT_EQ(before.unreachable, 0);
  EXPECT_LT(before.nodes, first.tree_nodes);  // the live part is smaller

  const auto next = run_search(search, g, p, 2000);
  EXPECT_EQ(next.root_visits, kept + 2000);
  expect_sound(search);
  // The garbage is gone: every node left is reachable from the root.
  EXPECT_EQ(search.audit_tree().nodes, next.tree_nodes);

  // Another game starts afresh; so does reuse_tree = false.
  EXPECT_EQ(search.set_game(Game(), p), 0u);
  SearchParams no_reuse = p;
  no_reuse.reuse_tree = false;
  run_search(search, Game(), p, 300);
  Game g2;
  g2.play_uci("e2e4");
  EXPECT_EQ(search.set_game(g2, no_reuse), 0u);
}

TEST(Graph, SoundWithThreadsBatchesInFlightAndReuse) {
  for (int threads : {1, 4}) {
    for (int depth : {1, 2}) {
      SCOPED_TRACE(testing::Message() << threads << " threads, " << depth << " batches each");
      SearchParams p = graph_params(threads);
      p.batch_size = 8;
      p.batches_per_thread = depth;
      Search search(std::make_shared<InferenceService>(
          std::make_unique<UniformEvaluator>(),
          InferenceServiceConfig{.max_batch = 64, .max_wait_us = 200, .in_flight = 2}));
      Game g;
      for (int move = 0; move < 3; ++move) {
        const auto s = run_search(search, g, p, 3000);
        EXPECT_EQ(s.playouts, 3000);
        EXPECT_EQ(s.reason, StopReason::kPlayouts);
        std::uint32_t sum = 0;
        for (const auto& c : s.children) sum += c.visits;
        EXPECT_EQ(sum, s.root_visits - 1);
        expect_sound(search);
        EXPECT_GE(search.audit_tree().shared, 1);  // the opening's move orders meet
        g.play(s.children[s.best].move);
      }
    }
  }
}

TEST(Graph, CapsStopTheSearch) {
  SearchParams p = graph_params();
  p.max_tree_nodes = 500;
  Search a(std::make_shared<UniformEvaluator>());
  auto s = run_search(a, Game(), p, 0);
  EXPECT_EQ(s.reason, StopReason::kTreeNodes);
  EXPECT_GE(s.tree_nodes, 500);
  EXPECT_LT(s.tree_nodes, 500 + 2 * p.batch_size);
  p.max_tree_nodes = 0;
  p.max_memory_mb = 16;
  Search b(std::make_shared<UniformEvaluator>());
  s = run_search(b, Game(), p, 0);
  EXPECT_EQ(s.reason, StopReason::kMemory);
  EXPECT_GE(s.tree_bytes, std::size_t(16) << 20);
  EXPECT_LT(s.tree_bytes, (std::size_t(17) << 20));
  expect_sound(b);
}

TEST(Graph, TheOptionSwitchesOneSearchBetweenTreeAndGraph) {
  Search search(std::make_shared<UniformEvaluator>());
  for (bool graph : {true, false, true}) {
    SCOPED_TRACE(graph);
    SearchParams p = graph ? graph_params() : test::tree_params();
    const auto s = run_search(search, Game(), p, 500);
    EXPECT_EQ(s.root_visits, 500u);  // nothing kept across the switch
    const TreeAudit a = search.audit_tree();
    EXPECT_EQ(a.visit_mismatches, 0);
    EXPECT_EQ(a.edges > 0, graph);
  }
}

}  // namespace
}  // namespace zh
