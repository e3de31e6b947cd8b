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
  Search search(std::make_shared<UniformEvaluator>());
  Game g;
  SearchParams p = default_params(3);
  p.batch_size = 4;
  for (int move = 0; move < 6; ++move) {
    search.set_game(g, p);
    search.start(p, NodeLimits{});
    search.wait_finished_for(5);
    (void)search.snapshot();  // polled from another thread while workers run
    search.request_stop();
    search.join();
    const auto s = search.snapshot();
    ASSERT_GE(s.best, 0);
    g.play(s.children[s.best].move);
  }
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
