// Search threads that keep several mini-batches at the evaluator (search.batches_per_thread):
// the tree's bookkeeping stays exact, one thread stays reproducible, and a stop or a failure
// with batches in flight drains them. Built into the `tsan` preset's run.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/nn/backends/sim.h"
#include "engine/nn/backends/uniform.h"
#include "engine/nn/inference_service.h"
#include "engine/search/search.h"
#include "tests/engine/search/search_test_util.h"
#include "tests/support/fake_clock.h"

namespace zh {
namespace {

using namespace std::chrono_literals;
using test::default_params;
using test::run_search;

// An InferenceService in front of `backend`, as the loader builds one for a device.
std::shared_ptr<Evaluator> service(std::unique_ptr<Evaluator> backend, int max_batch = 64) {
  return std::make_shared<InferenceService>(
      std::move(backend),
      InferenceServiceConfig{.max_batch = max_batch, .max_wait_us = 200, .in_flight = 2});
}

void expect_clean(const Search& search) {
  const TreeAudit a = search.audit_tree();
  EXPECT_GT(a.nodes, 1);
  EXPECT_EQ(a.in_flight, 0) << "virtual loss left on the tree";
  EXPECT_EQ(a.visit_mismatches, 0) << "a backup lost or counted twice";
  EXPECT_EQ(a.pending, 0);
}

TEST(SearchPipeline, VisitsAndVirtualLossStayExact) {
  for (int threads : {1, 4}) {
    for (int depth : {2, 3}) {
      SCOPED_TRACE(testing::Message() << threads << " threads, " << depth << " batches each");
      SearchParams p = default_params(threads);
      p.batch_size = 8;
      p.batches_per_thread = depth;
      Search search(service(std::make_unique<UniformEvaluator>()));
      Game g;
      for (int move = 0; move < 3; ++move) {  // tree reuse too
        const auto s = run_search(search, g, p, 3000);
        EXPECT_EQ(s.playouts, 3000);
        std::uint32_t sum = 0;
        for (const auto& c : s.children) sum += c.visits;
        EXPECT_EQ(sum, s.root_visits - 1);
        EXPECT_EQ(s.reason, StopReason::kPlayouts);
        expect_clean(search);
        g.play(s.children[s.best].move);
      }
    }
  }
}

// Search threads tell the service that they produce (ProducerScope), so once all of them wait
// on it a batch runs without waiting for company: here the service's clock never moves and its
// wait is endless, so only that lets the searches finish.
TEST(SearchPipeline, ItsThreadsNeverWaitForCompanyThatCannotCome) {
  test::FakeClock clock;  // never advanced
  for (int threads : {1, 3})
    for (bool graph : {false, true}) {
      SCOPED_TRACE(testing::Message() << threads << " threads, graph " << graph);
      SearchParams p = default_params(threads);
      p.batch_size = 8;
      p.graph = graph;
      Search search(std::make_shared<InferenceService>(
          std::make_unique<UniformEvaluator>(),
          InferenceServiceConfig{.max_batch = 64, .max_wait_us = 1000000000}, clock));
      auto done =
          std::async(std::launch::async, [&] { return run_search(search, Game(), p, 500); });
      const bool finished = done.wait_for(60s) == std::future_status::ready;
      EXPECT_TRUE(finished) << "a batch waited for a producer that was already waiting";
      if (!finished) clock.advance(1001s);  // let it end so that the test can
      EXPECT_EQ(done.get().playouts, 500);
      if (!graph) expect_clean(search);
    }
}

TEST(SearchPipeline, TheAuditSeesVirtualLossAndBackupsOfEveryNode) {
  // The plain search passes the same audit: it checks the tree, not the pipeline.
  SearchParams p = default_params(2);
  p.batch_size = 8;
  Search search(std::make_shared<UniformEvaluator>());
  run_search(search, Game(), p, 2000);
  expect_clean(search);
}

TEST(SearchPipeline, OneThreadIsReproducible) {
  // It completes its batches in the order it submitted them, so timing cannot change the tree.
  auto once = [](int depth) {
    SearchParams p = default_params(1);
    p.batch_size = 16;
    p.batches_per_thread = depth;
    Search search(service(std::make_unique<SimEvaluator>(SimConfig{.fixed_us = 50})));
    return run_search(search, Game(), p, 4000);
  };
  const SearchSnapshot a = once(2), b = once(2), serial = once(1);
  ASSERT_EQ(a.children.size(), b.children.size());
  std::vector<std::uint32_t> va, vb, vs;
  for (std::size_t i = 0; i < a.children.size(); ++i) {
    va.push_back(a.children[i].visits);
    vb.push_back(b.children[i].visits);
    vs.push_back(serial.children[i].visits);
  }
  EXPECT_EQ(va, vb);
  EXPECT_EQ(a.pv, b.pv);
  EXPECT_EQ(a.tree_nodes, b.tree_nodes);
  // Two batches in flight select under each other's virtual loss: another tree than one.
  EXPECT_NE(va, vs);
}

TEST(SearchPipeline, MateAndTerminalLeavesWithBatchesInFlight) {
  SearchParams p = default_params(4);
  p.batches_per_thread = 2;
  Search search(service(std::make_unique<UniformEvaluator>()));
  const auto s = run_search(
      search, Game(Position::from_fen("5r1k/6pp/8/8/2B5/8/5PPP/6K1[QN] w - - 0 1")), p, 50000);
  EXPECT_EQ(s.root_proof, Proof::kWin);
  EXPECT_EQ(s.root_proof_plies, 3);
  EXPECT_EQ(search.audit_tree().in_flight, 0);
  EXPECT_EQ(search.audit_tree().pending, 0);
}

// Holds every batch until opened, and counts the batches waiting at it.
class Gate final : public Evaluator {
 public:
  std::string name() const override { return "gate"; }
  void evaluate(std::span<const EvalInput> in, std::span<Evaluation> out) override {
    {
      std::unique_lock lock(mutex_);
      ++waiting_;
      cv_.notify_all();
      cv_.wait(lock, [&] { return open_; });
    }
    UniformEvaluator().evaluate(in, out);
  }
  // Waits (bounded) until `n` batches are held; returns whether they are.
  bool wait_held(int n) {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, 10s, [&] { return waiting_ >= n; });
  }
  void open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    cv_.notify_all();
  }
  void close() {
    std::lock_guard lock(mutex_);
    open_ = false;
    waiting_ = 0;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  int waiting_ = 0;
  bool open_ = false;
};

TEST(SearchPipeline, AStopWithBatchesInFlightCompletesThemBeforeTheSearchEnds) {
  auto gate_owned = std::make_unique<Gate>();
  Gate& gate = *gate_owned;
  // max_batch 4 = one thread's mini-batch: each held service worker holds one of them, and the
  // others wait in the service's queue.
  SearchParams p = default_params(2);
  p.batch_size = 4;
  p.batches_per_thread = 2;
  Search search(service(std::move(gate_owned), 4));
  search.set_game(Game(), p);
  gate.open();  // the root's expansion
  search.start(p, NodeLimits{});
  gate.close();
  ASSERT_TRUE(gate.wait_held(2));  // both service workers hold a batch; more are queued
  search.request_stop();
  gate.open();
  search.join();
  const auto s = search.snapshot();
  EXPECT_EQ(s.reason, StopReason::kRequested);
  EXPECT_GE(s.evaluations, 2);  // the held batches were backed up, not dropped
  expect_clean(search);
}

TEST(SearchPipeline, DestroyingTheSearchWithBatchesInFlightWaitsForThem) {
  auto gate_owned = std::make_unique<Gate>();
  Gate& gate = *gate_owned;
  auto evaluator = service(std::move(gate_owned), 4);  // outlives the search, as the loader's
  SearchParams p = default_params(3);
  p.batch_size = 4;
  p.batches_per_thread = 2;
  auto search = std::make_unique<Search>(evaluator);
  search->set_game(Game(), p);
  gate.open();
  search->start(p, NodeLimits{});
  gate.close();
  ASSERT_TRUE(gate.wait_held(2));
  // The destructor stops the workers, which wait for their batches: open the gate meanwhile.
  std::thread destroyer([&] { search.reset(); });
  gate.open();
  destroyer.join();
  EXPECT_EQ(search, nullptr);
}

TEST(SearchPipeline, AFailingEvaluatorEndsTheSearchWithEveryBatchTakenBack) {
  for (int threads : {1, 3}) {
    SearchParams p = default_params(threads);
    p.batch_size = 8;
    p.batches_per_thread = 2;
    // Batches 1-6 work (the root's is one), then every one fails.
    Search search(service(std::make_unique<SimEvaluator>(SimConfig{.fail_after = 6}), 8));
    const auto s = run_search(search, Game(), p, 100000);
    EXPECT_EQ(s.reason, StopReason::kError);
    EXPECT_NE(s.error.find("injected device failure"), std::string::npos) << s.error;
    EXPECT_LT(s.playouts, 100000);
    expect_clean(search);
  }
}

}  // namespace
}  // namespace zh
