// The graph with many search threads and no search-wide lock (docs/search-formulas.md,
// "Threads"): every playout is counted once, whatever the threads do at once; nothing stays
// in flight after a limit, a stop or a failed evaluation; one thread evaluates a position, the
// others wait for it; proofs found by several threads hold. Built into the `tsan` preset's run.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "engine/nn/backends/sim.h"
#include "engine/search/eval_cache.h"
#include "engine/search/search.h"
#include "tests/engine/search/search_test_util.h"

namespace zh {
namespace {

using test::default_params;
using test::game_from;
using test::run_search;

// Drops in hand reach the same positions by many move orders: many shared nodes.
constexpr const char* kDrops = "r3k2r/ppp2ppp/8/8/8/8/PPP2PPP/R3K2R[NBnb] w KQkq - 0 1";

SearchParams graph_threads(int threads) {
  SearchParams p = default_params(threads);
  p.graph = true;
  p.batch_size = 8;
  p.batches_per_thread = 2;  // a device's setting: more leaves in flight, more collisions
  return p;
}

// A device that takes a little while (the calling thread sleeps, as on a GPU), so the threads'
// selections and backups overlap; counts how often each position was evaluated.
class CountingSim final : public Evaluator {
 public:
  CountingSim() : sim_(SimConfig{.fixed_us = 30.0, .per_position_us = 1.0}) {}
  std::string name() const override { return "counting-sim"; }
  void evaluate(std::span<const EvalInput> in, std::span<Evaluation> out) override {
    {
      std::lock_guard lock(mutex_);
      for (const EvalInput& e : in) ++times_[eval_key(e.position, 0)];
    }
    sim_.evaluate(in, out);
  }
  // Positions evaluated more than once since the last reset.
  int repeated() {
    std::lock_guard lock(mutex_);
    int n = 0;
    for (const auto& [key, times] : times_) n += times > 1;
    return n;
  }
  std::int64_t positions() {
    std::lock_guard lock(mutex_);
    std::int64_t n = 0;
    for (const auto& [key, times] : times_) n += times;
    return n;
  }
  void reset() {
    std::lock_guard lock(mutex_);
    times_.clear();
  }

 private:
  SimEvaluator sim_;
  std::mutex mutex_;
  std::map<std::uint64_t, int> times_;
};

void expect_sound(const Search& search, const std::string& where) {
  const TreeAudit a = search.audit_tree();
  EXPECT_GT(a.nodes, 1) << where;
  EXPECT_EQ(a.in_flight, 0) << where << ": virtual loss left";
  EXPECT_EQ(a.visit_mismatches, 0) << where << ": a backup lost or counted twice";
  EXPECT_EQ(a.pending, 0) << where;
  EXPECT_EQ(a.ref_mismatches, 0) << where << ": a reference count that is not its edges";
  EXPECT_EQ(a.unreachable, 0) << where << ": a node nothing reaches";
}

TEST(GraphThreads, EightThreadsCountEveryPlayoutOnceAndEvaluateEveryPositionOnce) {
  for (int threads : {2, 8}) {
    SCOPED_TRACE(threads);
    auto evaluator = std::make_shared<CountingSim>();
    Search search(evaluator);
    SearchParams p = graph_threads(threads);
    p.leaf_mate_plies = 0;  // every leaf goes to the evaluator
    p.root_mate_share = 0;
    const auto s = run_search(search, game_from(kDrops), p, 6000);
    EXPECT_EQ(s.reason, StopReason::kPlayouts);
    EXPECT_EQ(s.playouts, 6000);      // the threads together stop at the limit, not past it
    EXPECT_EQ(s.root_visits, 6000u);  // every playout reached the root once
    std::uint32_t sum = 0;
    for (const auto& c : s.children) sum += c.visits;
    EXPECT_EQ(sum + 1, s.root_visits);
    expect_sound(search, "after the limit");
    EXPECT_GE(search.audit_tree().shared, 1);  // the drops' move orders met
    // One thread evaluates a node; another that reaches it meanwhile waits for its value.
    EXPECT_EQ(evaluator->repeated(), 0);
    EXPECT_EQ(evaluator->positions(), s.evaluations);
  }
}

TEST(GraphThreads, StopsPollsAndReuseLeaveNothingInFlight) {
  // Stopped by the caller while eight threads run, its snapshot read meanwhile, then the next
  // move keeps the played move's node: every time the graph is whole.
  auto evaluator = std::make_shared<CountingSim>();
  Search search(evaluator);
  Game g = game_from(kDrops);
  const SearchParams p = graph_threads(8);
  for (int move = 0; move < 4; ++move) {
    const std::string where = "move " + std::to_string(move);
    const std::uint32_t kept = search.set_game(g, p);
    search.start(p, NodeLimits{});
    search.wait_finished_for(20);
    const SearchSnapshot during = search.snapshot();  // while the workers run
    EXPECT_GE(during.root_visits, kept) << where;
    search.request_stop();
    search.join();
    const auto s = search.snapshot();
    EXPECT_EQ(s.reason, StopReason::kRequested) << where;
    EXPECT_EQ(std::int64_t(s.root_visits), std::int64_t(kept) + s.playouts) << where;
    std::uint32_t sum = 0;
    for (const auto& c : s.children) sum += c.visits;
    EXPECT_EQ(sum + 1, s.root_visits) << where;
    expect_sound(search, where);
    ASSERT_GE(s.best, 0);
    g.play(s.children[s.best].move);
  }
}

TEST(GraphThreads, AFailedEvaluationTakesItsLeavesBackAndTheNextSearchEvaluatesThem) {
  Search search(std::make_shared<test::FailingEvaluator>(40));
  SearchParams p = graph_threads(8);
  const auto failed = run_search(search, game_from(kDrops), p, 100000);
  EXPECT_EQ(failed.reason, StopReason::kError);
  const TreeAudit a = search.audit_tree();
  EXPECT_EQ(a.in_flight, 0);
  EXPECT_EQ(a.pending, 0);
  EXPECT_EQ(a.visit_mismatches, 0);
  // The failed leaves are free to be claimed again: a working evaluator searches them.
  search.set_evaluator(std::make_shared<UniformEvaluator>());
  const auto next = run_search(search, game_from(kDrops), p, 3000);
  EXPECT_EQ(next.reason, StopReason::kPlayouts);
  EXPECT_EQ(next.playouts, 3000);
  expect_sound(search, "after the failure");
}

TEST(GraphThreads, TheSolverProvesAMateInTwoWithEightThreads) {
  // The proofs come from several threads' backups at once: the leaf mate search's mates in
  // one and the solver over them.
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(round);
    Search search(std::make_shared<CountingSim>());
    SearchParams p = graph_threads(8);
    p.leaf_mate_plies = 1;
    p.root_mate_share = 0;
    p.seed = std::uint64_t(round + 1);
    const auto s =
        run_search(search, game_from("5r1k/6pp/8/8/2B5/8/5PPP/6K1[QN] w - - 0 1"), p, 50000);
    EXPECT_EQ(s.reason, StopReason::kSolved);
    EXPECT_EQ(s.root_proof, Proof::kWin);
    EXPECT_EQ(s.root_proof_plies, 3);
    const TreeAudit a = search.audit_tree();
    EXPECT_EQ(a.in_flight, 0);
    EXPECT_EQ(a.pending, 0);
    EXPECT_EQ(a.ref_mismatches, 0);
  }
}

}  // namespace
}  // namespace zh
