// Several search threads on one tree; built into the `tsan` preset's run.
#include <gtest/gtest.h>

#include "engine/search/search.h"
#include "tests/engine/search/search_test_util.h"

namespace zh {
namespace {

using test::default_params;
using test::run_search;

TEST(SearchConcurrency, ThreadsShareOneTreeConsistently) {
  for (int threads : {2, 4}) {
    SearchParams p = default_params(threads);
    p.batch_size = 8;
    Search search(std::make_shared<UniformEvaluator>());
    const auto s = run_search(search, Game(), p, 4000);
    EXPECT_EQ(s.playouts, 4000);
    EXPECT_EQ(s.root_visits, 4000u);
    std::uint32_t sum = 0;
    for (const auto& c : s.children) sum += c.visits;
    EXPECT_EQ(sum, s.root_visits - 1);
  }
}

TEST(SearchConcurrency, StopAndReuseWhileThreadsRun) {
  // Stopped by the caller while three threads run, polled meanwhile, the search leaves a
  // consistent tree every time (no virtual loss or pending leaf left, every backup counted
  // once), and the next move keeps exactly the subtree of the move played.
  Search search(std::make_shared<UniformEvaluator>());
  Game g;
  SearchParams p = default_params(3);
  p.batch_size = 4;
  std::uint32_t played_child_visits = 0;
  for (int move = 0; move < 6; ++move) {
    const std::uint32_t kept = search.set_game(g, p);
    if (move > 0) {
      EXPECT_EQ(kept, played_child_visits) << "move " << move;
    }
    search.start(p, NodeLimits{});
    search.wait_finished_for(5);
    (void)search.snapshot();  // polled from another thread while workers run
    search.request_stop();
    search.join();
    const auto s = search.snapshot();
    EXPECT_EQ(s.reason, StopReason::kRequested);
    const TreeAudit audit = search.audit_tree();
    EXPECT_EQ(audit.in_flight, 0) << "move " << move;
    EXPECT_EQ(audit.pending, 0) << "move " << move;
    EXPECT_EQ(audit.visit_mismatches, 0) << "move " << move;
    std::uint32_t sum = 0;
    for (const auto& c : s.children) sum += c.visits;
    EXPECT_EQ(sum + 1, s.root_visits) << "move " << move;
    ASSERT_GE(s.best, 0);
    ASSERT_LT(s.best, int(s.children.size()));
    played_child_visits = s.children[s.best].visits;
    g.play(s.children[s.best].move);
  }
}

// Plays `moves` moves of 300-playout searches onto `g`, each search complete.
void play_searched_moves(Search& search, Game& g, const SearchParams& p, int moves) {
  for (int move = 0; move < moves; ++move) {
    const auto s = run_search(search, g, p, 300);
    EXPECT_EQ(s.playouts, 300);
    g.play(s.children[s.best].move);
  }
}

TEST(SearchConcurrency, WorkerThreadsAreCreatedOnceAndWokenForEverySearch) {
  auto evaluator = std::make_shared<test::ThreadRecordingEvaluator>();
  Search search(evaluator);
  Game g;
  SearchParams p = default_params(2);
  p.batch_size = 4;
  play_searched_moves(search, g, p, 8);
  // The root expansions run on the caller; every other evaluation on the same two workers.
  EXPECT_EQ(search.worker_threads(), 2);
  EXPECT_LE(evaluator->threads_seen(), 3u);

  // More threads than before grow the pool by one; fewer leave the extra one asleep.
  p.threads = 3;
  play_searched_moves(search, g, p, 3);
  EXPECT_EQ(search.worker_threads(), 3);
  EXPECT_LE(evaluator->threads_seen(), 4u);
  p.threads = 1;
  const auto s = run_search(search, g, p, 300);
  EXPECT_EQ(s.playouts, 300);
  EXPECT_EQ(search.worker_threads(), 3);
}

TEST(SearchConcurrency, StopRightAfterStartAndATeamThatNeverRan) {
  // A stop that comes before the woken workers ran still ends the search, and the next search
  // (a smaller team) is not confused by the workers that were asleep.
  Search search(std::make_shared<UniformEvaluator>());
  SearchParams p = default_params(4);
  for (int i = 0; i < 20; ++i) {
    p.threads = 1 + i % 4;
    search.set_game(Game(), p);
    search.start(p, NodeLimits{});
    search.request_stop();
    search.join();
    EXPECT_EQ(search.snapshot().reason, StopReason::kRequested);
  }
  EXPECT_EQ(search.worker_threads(), 4);
}

TEST(SearchConcurrency, MateIsFoundWithManyThreads) {
  SearchParams p = default_params(4);
  Search search(std::make_shared<UniformEvaluator>());
  const auto s = run_search(
      search, Game(Position::from_fen("5r1k/6pp/8/8/2B5/8/5PPP/6K1[QN] w - - 0 1")), p, 50000);
  EXPECT_EQ(s.root_proof, Proof::kWin);
  EXPECT_EQ(s.root_proof_plies, 3);
}

}  // namespace
}  // namespace zh
