// The tree's tests (graph=false); graph_test.cpp holds the graph's.
#include "engine/search/search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "engine/chess/notation.h"
#include "engine/nn/backends/material.h"
#include "tests/engine/search/search_test_util.h"

namespace zh {
namespace {

using test::game_from;
using test::MoveDroppingEvaluator;
using test::run_search;
using test::tree_params;

std::shared_ptr<Evaluator> uniform() { return std::make_shared<UniformEvaluator>(); }

const RootChild* find_child(const SearchSnapshot& s, const Position& pos, const char* uci) {
  const Move m = parse_uci(pos, uci);
  for (const auto& c : s.children)
    if (c.move == m) return &c;
  return nullptr;
}

std::uint32_t child_visit_sum(const SearchSnapshot& s) {
  std::uint32_t sum = 0;
  for (const auto& c : s.children) sum += c.visits;
  return sum;
}

// Searches the start position for 3000 playouts and plays the first two moves of its PV onto
// `g`: a position whose subtree the tree-reuse tests keep. Call under ASSERT_NO_FATAL_FAILURE.
void search_and_play_two_pv_moves(Search& search, Game& g, SearchSnapshot& first) {
  first = run_search(search, g, tree_params(), 3000);
  ASSERT_GE(first.pv.size(), 2u);
  g.play(first.pv[0]);
  g.play(first.pv[1]);
}

TEST(Search, PlayoutLimitIsExactAndVisitsAddUp) {
  Search search(uniform());
  const auto s = run_search(search, Game(), tree_params(), 1000);
  EXPECT_EQ(s.reason, StopReason::kPlayouts);
  EXPECT_EQ(s.playouts, 1000);
  EXPECT_EQ(s.root_visits, 1000u);                   // fresh tree: every playout passed the root
  EXPECT_EQ(child_visit_sum(s), s.root_visits - 1);  // ...and one was the root's own
  EXPECT_EQ(s.children.size(), 20u);
  ASSERT_GE(s.best, 0);
  EXPECT_FALSE(s.pv.empty());
  EXPECT_EQ(s.pv[0], s.children[s.best].move);
}

TEST(Search, TheRootsValueIsReportedForTheSideToMove) {
  // White to move, a queen up: the material evaluator says so, and so does the snapshot.
  const Game g = game_from("4k3/8/8/8/8/8/8/3QK3[] w - - 0 1");
  ASSERT_GT(MaterialEvaluator::value_of(g.position()), 0.2f);
  Search search(std::make_shared<MaterialEvaluator>());
  const auto s = run_search(search, g, tree_params(), 200);
  EXPECT_GT(s.root_q, 0.2f);
  Search black(std::make_shared<MaterialEvaluator>());
  EXPECT_LT(
      run_search(black, game_from("4k3/8/8/8/8/8/8/3QK3[] b - - 0 1"), tree_params(), 200).root_q,
      -0.2f);
}

TEST(Search, UnvisitedChildrenStartAtQMinusOne) {
  // Playout 1 expands the root, 2 visits the top edge. With Q init -1 playout 3 returns to
  // it (its Q = 0 beats -1 + U); with Q init 0 it would try the next edge instead.
  SearchParams p = tree_params();
  p.batch_size = 1;
  Search a(uniform());
  auto s = run_search(a, Game(), p, 3);
  EXPECT_EQ(s.children[0].visits, 2u);
  EXPECT_EQ(s.children[1].visits, 0u);
  p.q_init = 0;
  Search b(uniform());
  s = run_search(b, Game(), p, 3);
  EXPECT_EQ(s.children[0].visits, 1u);
  EXPECT_EQ(s.children[1].visits, 1u);
}

TEST(Search, RelativeFirstPlayFollowsTheParentNotQInit) {
  // The uniform evaluator values every position 0, so after playouts 1-2 the root's Q is 0 and
  // its first child's is 0. Playout 3 compares that child (0 + U over 1 + 1 visits) with the
  // next edge (first-play value + U over 0 + 1). With no reduction the next edge starts at the
  // parent's 0 and wins; with a large one it starts far below and the visited child wins.
  // q_init no longer counts: 1 would send every playout to a new edge.
  SearchParams p = tree_params();
  p.batch_size = 1;
  p.fpu_relative = true;
  p.q_init = 1;
  p.fpu_reduction = 0;
  Search a(uniform());
  auto s = run_search(a, Game(), p, 3);
  EXPECT_EQ(s.children[0].visits, 1u);
  EXPECT_EQ(s.children[1].visits, 1u);
  p.fpu_reduction = 2;
  Search b(uniform());
  s = run_search(b, Game(), p, 3);
  EXPECT_EQ(s.children[0].visits, 2u);
  EXPECT_EQ(s.children[1].visits, 0u);
}

TEST(Search, VirtualLossSpreadsABatch) {
  // One batch of 16 leaves: virtual loss sends each to a different root move.
  SearchParams p = tree_params();
  p.batch_size = 16;
  Search a(uniform());
  auto s = run_search(a, Game(), p, 17);
  int distinct = 0;
  for (const auto& c : s.children) distinct += c.visits == 1;
  EXPECT_EQ(distinct, 16);
  // Without it the second pick collides with the pending first leaf.
  p.virtual_loss = 0;
  Search b(uniform());
  s = run_search(b, Game(), p, 17);
  distinct = 0;
  for (const auto& c : s.children) distinct += c.visits > 0;
  EXPECT_LT(distinct, 16);
}

// Visits the batch of `batch` playouts after `serial` one-at-a-time ones gives each root move.
std::vector<std::uint32_t> batch_visits(const SearchParams& base, int serial, int batch) {
  // Rxd5 wins the queen: after a few serial playouts it is the root's best move by far.
  const Game g = game_from("4k3/8/8/3q4/8/8/8/3RK3[] w - - 0 1");
  Search search(std::make_shared<MaterialEvaluator>());
  SearchParams p = base;
  p.leaf_mate_plies = 0;
  p.root_mate_share = 0;
  p.batch_size = 1;
  const auto before = run_search(search, g, p, serial);
  p.batch_size = batch;
  const auto after = run_search(search, g, p, batch);  // the same game: the tree is kept
  std::vector<std::uint32_t> added;
  for (std::size_t i = 0; i < after.children.size(); ++i)
    added.push_back(after.children[i].visits - before.children[i].visits);
  return added;
}

TEST(Search, VirtualVisitsKeepABatchOnTheBestMove) {
  // Under virtual loss each pending playout through the best move counts as a loss there, so
  // the batch spreads to other moves; a virtual visit only shrinks the move's exploration
  // term and leaves its Q, so more of the batch stays on it.
  SearchParams p = tree_params();
  const auto loss = batch_visits(p, 40, 16);
  p.virtual_visit_threshold = 1000;
  const auto visit = batch_visits(p, 40, 16);
  const auto best = std::max_element(visit.begin(), visit.end()) - visit.begin();
  EXPECT_GT(visit[best], loss[best]);
  auto distinct = [](const std::vector<std::uint32_t>& v) {
    return std::count_if(v.begin(), v.end(), [](std::uint32_t n) { return n > 0; });
  };
  EXPECT_LT(distinct(visit), distinct(loss));
}

TEST(Search, FindsMateInOneAndStops) {
  const Game g = game_from("6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1");
  Search search(uniform());
  const auto s = run_search(search, g, tree_params(), 100000);
  EXPECT_EQ(s.reason, StopReason::kSolved);
  EXPECT_EQ(s.root_proof, Proof::kWin);
  EXPECT_EQ(s.root_proof_plies, 1);
  EXPECT_LT(s.playouts, 10);
  Position after = g.position();
  after.do_move(s.children[s.best].move);
  EXPECT_TRUE(after.is_checkmate());
}

TEST(Search, FindsMateInTwoWithTheUniformBackend) {
  // 1. Q@g8+ Rxg8 2. N@f7# (the bishop on c4 guards g8). Fairy-Stockfish: mate 2.
  const Game g = game_from("5r1k/6pp/8/8/2B5/8/5PPP/6K1[QN] w - - 0 1");
  for (int threads : {1, 2}) {
    Search search(uniform());
    const auto s = run_search(search, g, tree_params(threads), 20000);
    EXPECT_EQ(s.reason, StopReason::kSolved) << threads;
    EXPECT_EQ(s.root_proof, Proof::kWin);
    EXPECT_EQ(s.root_proof_plies, 3);
    EXPECT_EQ(to_uci(s.children[s.best].move), "Q@g8");
  }
}

TEST(Search, CheckmatedAndStalematedRootsHaveNoMove) {
  Search search(uniform());
  auto s = run_search(search, game_from("R5k1/5ppp/8/8/8/8/8/6K1[] b - - 0 1"), tree_params(), 100);
  EXPECT_TRUE(s.children.empty());
  EXPECT_EQ(s.best, -1);
  EXPECT_EQ(s.root_proof, Proof::kLoss);
  search.clear();
  s = run_search(search, game_from("7k/5Q2/6K1/8/8/8/8/8[] b - - 0 1"), tree_params(), 100);
  EXPECT_EQ(s.best, -1);
  EXPECT_EQ(s.root_proof, Proof::kDraw);
}

TEST(Search, RepeatingAGamePositionIsADraw) {
  Game g;
  for (const char* m : {"g1f3", "g8f6", "f3g1", "f6g8"}) g.play_uci(m);
  Search search(uniform());
  const auto s = run_search(search, g, tree_params(), 3000);
  const RootChild* back = find_child(s, g.position(), "g1f3");  // reaches a known position
  const RootChild* fresh = find_child(s, g.position(), "b1c3");
  ASSERT_TRUE(back && fresh);
  ASSERT_GT(back->visits, 0u);
  EXPECT_EQ(back->proof, Proof::kDraw);
  EXPECT_FLOAT_EQ(back->q, 0.0f);
  EXPECT_EQ(fresh->proof, Proof::kNone);
}

TEST(Search, TreeReuseKeepsTheSubtreeOfTheMovesPlayed) {
  Search search(uniform());
  Game g;
  SearchSnapshot s;
  ASSERT_NO_FATAL_FAILURE(search_and_play_two_pv_moves(search, g, s));
  const std::uint32_t kept = search.set_game(g, tree_params());
  EXPECT_GT(kept, 1u);
  EXPECT_EQ(search.snapshot().root_visits, kept);
  // The next search continues from there and the counts still add up.
  const auto t = run_search(search, g, tree_params(), 500);
  EXPECT_EQ(t.root_visits, kept + 500);
  EXPECT_EQ(child_visit_sum(t), t.root_visits - 1);
  // A game that does not extend the old one starts afresh; so does reuse_tree = false.
  EXPECT_EQ(search.set_game(Game(), tree_params()), 0u);
  SearchParams no_reuse = tree_params();
  no_reuse.reuse_tree = false;
  run_search(search, Game(), tree_params(), 300);
  Game g2;
  g2.play_uci("e2e4");
  EXPECT_EQ(search.set_game(g2, no_reuse), 0u);
}

TEST(Search, AKeptTreeThatIsNotThePositionIsDroppedWithANote) {
  auto evaluator = std::make_shared<MoveDroppingEvaluator>();
  Search search(evaluator);
  Game g;
  SearchSnapshot s;
  ASSERT_NO_FATAL_FAILURE(search_and_play_two_pv_moves(search, g, s));
  evaluator->lying = false;
  EXPECT_EQ(search.set_game(g, tree_params()), 0u);
  const auto notes = search.take_notes();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find(g.position().fen()), std::string::npos) << notes[0];
  EXPECT_TRUE(search.take_notes().empty());  // reported once
  // The fresh root has every legal move.
  const auto t = run_search(search, g, tree_params(), 200);
  EXPECT_EQ(int(t.children.size()), g.position().count_legal_moves());
  EXPECT_TRUE(t.error.empty()) << t.error;
}

TEST(Search, AnEvaluatorAnsweringWithOtherMovesAtTheRootIsAnError) {
  auto evaluator = std::make_shared<MoveDroppingEvaluator>();
  evaluator->spared = Position::from_fen("8/8/8/8/8/8/8/K6k[] w - - 0 1");  // not this root
  Search search(evaluator);
  const auto s = run_search(search, Game(), tree_params(), 100);
  EXPECT_EQ(s.reason, StopReason::kError);
  EXPECT_NE(s.error.find("move-dropping"), std::string::npos) << s.error;
  EXPECT_NE(s.error.find("not the legal moves"), std::string::npos) << s.error;
  EXPECT_EQ(s.best, -1);  // no move of another position is offered
}

TEST(Search, TreeReuseOnlyUnlinksAndTheNextSearchFreesTheRest) {
  Search search(uniform());
  Game g;
  SearchSnapshot s;
  ASSERT_NO_FATAL_FAILURE(search_and_play_two_pv_moves(search, g, s));
  const std::uint32_t kept = search.set_game(g, tree_params());
  ASSERT_LT(kept, 1500u);
  // Nothing freed yet: the caller (the bot's move path) did not wait for it.
  EXPECT_EQ(search.snapshot().tree_nodes, s.tree_nodes);
  // The next search frees it a little per batch; then only the live tree is left (every node
  // of which has been visited, so about one node per root visit).
  const auto t = run_search(search, g, tree_params(), 2000);
  EXPECT_EQ(t.root_visits, kept + 2000);
  EXPECT_LT(t.tree_nodes, std::int64_t(t.root_visits) + 100);
  EXPECT_EQ(child_visit_sum(t), t.root_visits - 1);
}

TEST(Search, GarbageInTheWayOfTheNodeCapIsFreedInsteadOfStopping) {
  Search search(uniform());
  Game g;
  SearchSnapshot s;
  ASSERT_NO_FATAL_FAILURE(search_and_play_two_pv_moves(search, g, s));
  SearchParams capped = tree_params();
  capped.max_tree_nodes = 2500;  // the old tree alone is above it
  search.set_game(g, capped);
  const auto t = run_search(search, g, capped, 500);
  EXPECT_EQ(t.reason, StopReason::kPlayouts);
  EXPECT_LT(t.tree_nodes, 2500);
}

TEST(Search, TranspositionsShareEvaluations) {
  auto with = std::make_shared<test::CountingEvaluator>();
  auto without = std::make_shared<test::CountingEvaluator>();
  SearchParams p = tree_params();
  Search a(with);
  const auto sa = run_search(a, Game(), p, 6000);
  p.transpositions = false;
  Search b(without);
  const auto sb = run_search(b, Game(), p, 6000);
  EXPECT_EQ(sa.evaluations, with->positions);
  EXPECT_EQ(sb.evaluations, without->positions);
  EXPECT_LT(with->positions, without->positions);
}

TEST(Search, TreeNodeCapStopsTheSearch) {
  SearchParams p = tree_params();
  p.max_tree_nodes = 500;
  Search search(uniform());
  const auto s = run_search(search, Game(), p, 0);  // no playout limit
  EXPECT_EQ(s.reason, StopReason::kTreeNodes);
  EXPECT_GE(s.tree_nodes, 500);
  EXPECT_LT(s.tree_nodes, 500 + 2 * p.batch_size);
}

TEST(Search, MemoryCapStopsTheSearchAtItsSize) {
  SearchParams p = tree_params();
  p.max_memory_mb = 16;
  Search search(uniform());
  const auto s = run_search(search, Game(), p, 0);  // no playout limit
  EXPECT_EQ(s.reason, StopReason::kMemory);
  EXPECT_GE(s.tree_bytes, std::size_t(16) << 20);
  EXPECT_LT(s.tree_bytes, (std::size_t(16) << 20) + (std::size_t(1) << 20));
}

TEST(Search, MemoryStaysUnderOnePointFiveKilobytesPerExpandedNode) {
  // A drop-heavy middlegame with ~100 legal moves per node.
  const Game g =
      game_from("r2q1rk1/ppp2pp1/1bnp3p/3B4/3PP1b1/4PN2/PP4PP/R2Q1RK1[BNPnp] b - - 0 13");
  Search search(uniform());
  const auto s = run_search(search, g, tree_params(), 5000);
  ASSERT_GT(s.expanded_nodes, 1000);
  const double per_node = double(s.tree_bytes) / double(s.expanded_nodes);
  EXPECT_LE(per_node, 1536.0);
  EXPECT_GT(per_node, 100.0);  // the accounting counts the priors
}

TEST(Search, EvaluatorErrorsStopTheSearchCleanly) {
  Search root_fails(std::make_shared<test::FailingEvaluator>(0));
  auto s = run_search(root_fails, Game(), tree_params(), 100);
  EXPECT_EQ(s.reason, StopReason::kError);
  EXPECT_NE(s.error.find("device lost"), std::string::npos);
  Search later(std::make_shared<test::FailingEvaluator>(5));
  s = run_search(later, Game(), tree_params(2), 100000);
  EXPECT_EQ(s.reason, StopReason::kError);
  EXPECT_GE(s.best, 0);  // a move is still chosen
}

TEST(Search, RootNoiseIsSeededAndKeepsPriorsNormalised) {
  SearchParams p = tree_params();
  p.dirichlet_noise = true;
  Search a(uniform()), b(uniform());
  a.seed(42);
  b.seed(42);
  const auto sa = run_search(a, Game(), p, 50);
  const auto sb = run_search(b, Game(), p, 50);
  float sum = 0, max_prior = 0;
  for (std::size_t i = 0; i < sa.children.size(); ++i) {
    sum += sa.children[i].prior;
    max_prior = std::max(max_prior, sa.children[i].prior);
    EXPECT_EQ(sa.children[i].move, sb.children[i].move);
    EXPECT_FLOAT_EQ(sa.children[i].prior, sb.children[i].prior);
  }
  EXPECT_NEAR(sum, 1.0f, 5e-3f);
  EXPECT_GT(max_prior, 0.06f);  // uniform would be 0.05 everywhere
}

TEST(Search, StopRequestEndsAnUnlimitedSearch) {
  Search search(uniform());
  SearchParams p = tree_params(2);
  search.set_game(Game(), p);
  search.start(p, NodeLimits{});
  EXPECT_FALSE(search.wait_finished_for(20));
  search.request_stop();
  search.join();
  const auto s = search.snapshot();
  EXPECT_EQ(s.reason, StopReason::kRequested);
  EXPECT_EQ(s.root_visits, std::uint32_t(s.playouts));
}

TEST(Search, EvalKeyCoversTheCountersOfTheInputPlanes) {
  const Position a =
      Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1");
  const Position b =
      Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 7");
  const Position c =
      Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 3 1");
  EXPECT_NE(eval_key(a, 0), eval_key(b, 0));
  EXPECT_NE(eval_key(a, 0), eval_key(c, 0));
  EXPECT_NE(eval_key(a, 0), eval_key(a, 1));
  EXPECT_EQ(eval_key(a, 0), eval_key(Position(), 0));
}

}  // namespace
}  // namespace zh
