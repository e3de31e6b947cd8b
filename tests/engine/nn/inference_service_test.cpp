#include "engine/nn/inference_service.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/chess/game.h"
#include "engine/nn/backends/material.h"
#include "engine/nn/backends/sim.h"
#include "tests/support/fake_clock.h"

namespace zh {
namespace {

using namespace std::chrono_literals;

// Wraps MaterialEvaluator: records batch sizes, can be slowed down, and throws for any
// batch that holds an input with kPoison repetitions.
class ProbeEvaluator final : public Evaluator {
 public:
  static constexpr int kPoison = 77;
  explicit ProbeEvaluator(std::chrono::microseconds delay = 0us) : delay_(delay) {}
  std::string name() const override { return "probe"; }
  void evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) override {
    {
      std::lock_guard lock(mutex_);
      sizes_.push_back(inputs.size());
    }
    if (delay_ > 0us) std::this_thread::sleep_for(delay_);
    for (const auto& in : inputs)
      if (in.repetitions == kPoison) throw std::runtime_error("poisoned batch");
    inner_.evaluate(inputs, outputs);
  }
  std::vector<std::size_t> sizes() const {
    std::lock_guard lock(mutex_);
    return sizes_;
  }

 private:
  std::chrono::microseconds delay_;
  MaterialEvaluator inner_;
  mutable std::mutex mutex_;
  std::vector<std::size_t> sizes_;
};

// Positions from a few random games, with their direct (unbatched) evaluations.
struct Corpus {
  std::vector<EvalInput> inputs;
  std::vector<Evaluation> expected;
};

const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus out;
    std::mt19937 rng(11);
    for (int g = 0; g < 6; ++g) {
      Game game;
      for (int ply = 0; ply < 40 && !game.position().legal_moves().empty(); ++ply) {
        out.inputs.push_back({game.position(), ply % 3 == 0 ? 1 : 0});
        const MoveList moves = game.position().legal_moves();
        game.play(moves[static_cast<int>(rng() % moves.size())]);
      }
    }
    out.expected.resize(out.inputs.size());
    MaterialEvaluator().evaluate(out.inputs, out.expected);
    return out;
  }();
  return c;
}

bool same(const Evaluation& a, const Evaluation& b) {
  if (a.value != b.value || a.priors.size() != b.priors.size()) return false;
  for (std::size_t i = 0; i < a.priors.size(); ++i)
    if (a.priors[i].move != b.priors[i].move || a.priors[i].prior != b.priors[i].prior)
      return false;
  return true;
}

TEST(InferenceServiceTest, ManyProducersGetTheirOwnResults) {
  auto probe = std::make_unique<ProbeEvaluator>(200us);
  ProbeEvaluator* raw = probe.get();
  InferenceService service(std::move(probe), {.max_batch = 8, .max_wait_us = 1000});
  const Corpus& c = corpus();
  std::atomic<int> wrong{0}, done{0};
  std::vector<std::thread> producers;
  for (int t = 0; t < 6; ++t)
    producers.emplace_back([&, t] {
      for (std::size_t i = static_cast<std::size_t>(t); i < c.inputs.size(); i += 6) {
        switch (i % 3) {
          case 0: {  // blocking, single
            Evaluation out;
            service.evaluate(std::span(&c.inputs[i], 1), std::span(&out, 1));
            wrong += !same(out, c.expected[i]);
            break;
          }
          case 1: {  // future
            wrong += !same(service.submit(c.inputs[i]).get(), c.expected[i]);
            break;
          }
          default: {  // a small group (up to 3 positions)
            const std::size_t n = std::min<std::size_t>(3, c.inputs.size() - i);
            std::vector<Evaluation> out(n);
            service.evaluate(std::span(&c.inputs[i], n), out);
            for (std::size_t k = 0; k < n; ++k) wrong += !same(out[k], c.expected[i + k]);
          }
        }
        ++done;
      }
    });
  for (auto& p : producers) p.join();
  EXPECT_EQ(wrong.load(), 0);
  const auto sizes = raw->sizes();
  EXPECT_LE(*std::max_element(sizes.begin(), sizes.end()), 8u);
  const InferenceStats s = service.stats();
  std::size_t total = 0;
  for (auto n : sizes) total += n;
  EXPECT_EQ(s.positions, total);
  EXPECT_EQ(s.batches, sizes.size());
  EXPECT_GT(s.mean_batch_fill, 1.5) << "6 producers on a slow backend must share batches";
  EXPECT_NEAR(s.mean_fill_ratio, s.mean_batch_fill / 8, 1e-9);
  EXPECT_GT(s.mean_forward_us, 150.0);
  EXPECT_EQ(s.failed, 0u);
}

TEST(InferenceServiceTest, FullBatchesWhenRequestsQueueUp) {
  test::FakeClock clock;  // never advanced: however slowly the 12 arrive, no wait runs out
  auto probe = std::make_unique<ProbeEvaluator>(1000us);
  ProbeEvaluator* raw = probe.get();
  InferenceService service(std::move(probe), {.max_batch = 4, .max_wait_us = 100000}, clock);
  std::vector<std::future<Evaluation>> results;
  for (int i = 0; i < 12; ++i) results.push_back(service.submit(corpus().inputs[i]));
  for (auto& r : results) ASSERT_EQ(r.wait_for(60s), std::future_status::ready);
  // Every batch is full (the first may start before all 12 arrive, but then it holds 4 anyway
  // because the wait only ends early when the batch is full).
  for (auto n : raw->sizes()) EXPECT_EQ(n, 4u);
}

TEST(InferenceServiceTest, ALoneRequestWaitsForCompanyUntilMaxWaitOnTheClock) {
  test::FakeClock clock;
  auto probe = std::make_unique<ProbeEvaluator>();
  ProbeEvaluator* raw = probe.get();
  InferenceService service(std::move(probe), {.max_batch = 16, .max_wait_us = 20000}, clock);
  auto result = service.submit(corpus().inputs[0]);
  // The worker waits on the clock for more requests; 19 ms on, it still waits.
  ASSERT_TRUE(clock.wait_parked());
  clock.advance(19ms);
  ASSERT_TRUE(clock.wait_parked());
  EXPECT_TRUE(raw->sizes().empty());
  EXPECT_NE(result.wait_for(0s), std::future_status::ready);
  // At max_wait it goes alone, and the queue wait it reports is the clock's.
  clock.advance(1ms);
  ASSERT_EQ(result.wait_for(60s), std::future_status::ready);
  result.get();
  EXPECT_EQ(raw->sizes(), std::vector<std::size_t>{1});
  EXPECT_DOUBLE_EQ(service.stats().mean_queue_wait_us, 20000.0);
}

TEST(InferenceServiceTest, AFullBatchGoesWithoutWaitingForTheClock) {
  test::FakeClock clock;  // never advanced: only a full batch can start
  auto probe = std::make_unique<ProbeEvaluator>();
  ProbeEvaluator* raw = probe.get();
  InferenceService service(std::move(probe), {.max_batch = 4, .max_wait_us = 1000000}, clock);
  std::vector<std::future<Evaluation>> results;
  for (int i = 0; i < 4; ++i) results.push_back(service.submit(corpus().inputs[i]));
  for (auto& r : results) ASSERT_EQ(r.wait_for(60s), std::future_status::ready);
  EXPECT_EQ(raw->sizes(), std::vector<std::size_t>{4});
}

// A search thread that has said it produces (producer_started) and then blocks in evaluate()
// is the last one that could add to the batch: it runs at once, without the clock.
TEST(InferenceServiceTest, WhenEveryProducerWaitsTheBatchGoesWithoutTheClock) {
  test::FakeClock clock;  // never advanced
  auto probe = std::make_unique<ProbeEvaluator>();
  ProbeEvaluator* raw = probe.get();
  InferenceService service(std::move(probe), {.max_batch = 16, .max_wait_us = 1000000}, clock);
  const ProducerScope producer(service);
  std::vector<Evaluation> out(3);
  auto done = std::async(std::launch::async,
                         [&] { service.evaluate(std::span(corpus().inputs).first(3), out); });
  ASSERT_EQ(done.wait_for(60s), std::future_status::ready);
  done.get();
  EXPECT_EQ(raw->sizes(), std::vector<std::size_t>{3});
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(same(out[i], corpus().expected[i]));
}

// With two producers the batch waits for the second (it holds both requests), and a producer
// that stops leaves the ones still waiting to go at once.
TEST(InferenceServiceTest, TheBatchWaitsForEveryProducerThatMayStillAdd) {
  test::FakeClock clock;  // never advanced
  auto probe = std::make_unique<ProbeEvaluator>();
  ProbeEvaluator* raw = probe.get();
  InferenceService service(std::move(probe), {.max_batch = 16, .max_wait_us = 1000000}, clock);
  service.producer_started();
  service.producer_started();
  std::vector<Evaluation> a(1), b(1);
  auto first = std::async(std::launch::async,
                          [&] { service.evaluate(std::span(corpus().inputs).first(1), a); });
  ASSERT_TRUE(clock.wait_parked());  // the worker holds the first request, waiting for more
  EXPECT_TRUE(raw->sizes().empty());
  auto second = std::async(std::launch::async,
                           [&] { service.evaluate(std::span(corpus().inputs).subspan(1, 1), b); });
  ASSERT_EQ(first.wait_for(60s), std::future_status::ready);
  ASSERT_EQ(second.wait_for(60s), std::future_status::ready);
  EXPECT_EQ(raw->sizes(), std::vector<std::size_t>{2});
  EXPECT_TRUE(same(a[0], corpus().expected[0]));
  EXPECT_TRUE(same(b[0], corpus().expected[1]));

  // The second producer leaves; the first, blocked alone, then goes without the clock.
  auto third = std::async(std::launch::async,
                          [&] { service.evaluate(std::span(corpus().inputs).first(1), a); });
  ASSERT_TRUE(clock.wait_parked());
  EXPECT_EQ(raw->sizes().size(), 1u);
  service.producer_stopped();
  ASSERT_EQ(third.wait_for(60s), std::future_status::ready);
  EXPECT_EQ(raw->sizes(), (std::vector<std::size_t>{2, 1}));
  service.producer_stopped();
}

// Callers of evaluate_async() may add more before they wait (a thread with several batches at a
// device): they never count as blocked, so their batches wait for company on the clock.
TEST(InferenceServiceTest, AsyncCallersDoNotCloseTheBatch) {
  test::FakeClock clock;
  auto probe = std::make_unique<ProbeEvaluator>();
  ProbeEvaluator* raw = probe.get();
  InferenceService service(std::move(probe), {.max_batch = 16, .max_wait_us = 20000}, clock);
  const ProducerScope producer(service);
  std::vector<Evaluation> out(1);
  auto pending = service.evaluate_async(std::span(corpus().inputs).first(1), out);
  ASSERT_TRUE(clock.wait_parked());
  EXPECT_TRUE(raw->sizes().empty());
  clock.advance(20ms);
  pending.get();
  EXPECT_EQ(raw->sizes(), std::vector<std::size_t>{1});
}

TEST(InferenceServiceTest, BackendFailureReachesOnlyThatBatchAndServiceGoesOn) {
  InferenceService service(std::make_unique<ProbeEvaluator>(), {.max_batch = 1, .max_wait_us = 0});
  const EvalInput poison{Position(), ProbeEvaluator::kPoison};
  EXPECT_THROW(service.submit(poison).get(), std::runtime_error);
  Evaluation out;
  EXPECT_THROW(service.evaluate(std::span(&poison, 1), std::span(&out, 1)), std::runtime_error);
  std::exception_ptr seen;
  std::promise<void> called;
  service.submit(poison, [&](Evaluation* e, std::exception_ptr error) {
    EXPECT_EQ(e, nullptr);
    seen = error;
    called.set_value();
  });
  called.get_future().get();
  EXPECT_TRUE(seen);
  // Still serving.
  EXPECT_TRUE(same(service.submit(corpus().inputs[1]).get(), corpus().expected[1]));
  EXPECT_EQ(service.stats().failed, 3u);
}

TEST(InferenceServiceTest, ShutdownCompletesPendingAndRefusesNew) {
  auto service = std::make_unique<InferenceService>(std::make_unique<ProbeEvaluator>(2000us),
                                                    InferenceServiceConfig{2, 50000});
  std::vector<std::future<Evaluation>> pending;
  for (int i = 0; i < 10; ++i) pending.push_back(service->submit(corpus().inputs[i]));
  service->shutdown();
  for (int i = 0; i < 10; ++i) {
    ASSERT_EQ(pending[i].wait_for(5s), std::future_status::ready);
    EXPECT_TRUE(same(pending[i].get(), corpus().expected[i]));
  }
  EXPECT_THROW(service->submit(corpus().inputs[0]), std::runtime_error);
  Evaluation out;
  EXPECT_THROW(service->evaluate(std::span(&corpus().inputs[0], 1), std::span(&out, 1)),
               std::runtime_error);
  service->shutdown();  // idempotent
  service.reset();
}

TEST(InferenceServiceTest, DestructorDrainsWhileProducersBlock) {
  std::vector<std::thread> producers;
  std::atomic<int> completed{0}, refused{0};
  {
    InferenceService service(std::make_unique<ProbeEvaluator>(500us), {4, 1000});
    for (int t = 0; t < 4; ++t)
      producers.emplace_back([&, t] {
        for (int i = 0; i < 50; ++i) {
          Evaluation out;
          try {
            service.evaluate(std::span(&corpus().inputs[(t * 50 + i) % corpus().inputs.size()], 1),
                             std::span(&out, 1));
            ++completed;
          } catch (const std::runtime_error&) {
            ++refused;  // arrived after shutdown began
            return;
          }
        }
      });
    // Shut down mid-stream: once evaluations are flowing, not after a fixed sleep (a slow
    // start-up, e.g. under the sanitizers, could otherwise shut down before the first one).
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (completed.load() == 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(1ms);
    }
    service.shutdown();
    for (auto& p : producers) p.join();
  }
  EXPECT_GT(completed.load(), 0);
  EXPECT_EQ(completed.load() + refused.load() <= 200, true);
}

// Each call waits (bounded) until a second one is running beside it, and records the most
// calls it saw at once.
class RendezvousEvaluator final : public Evaluator {
 public:
  std::string name() const override { return "rendezvous"; }
  void evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) override {
    std::unique_lock lock(mutex_);
    ++running_;
    most_ = std::max(most_, running_);
    cv_.notify_all();
    // Until two have run at once (most_, not running_: the first to leave must not strand the
    // other in its wait).
    cv_.wait_for(lock, 10s, [&] { return most_ >= 2; });
    --running_;
    lock.unlock();
    MaterialEvaluator().evaluate(inputs, outputs);
  }
  int most() const {
    std::lock_guard lock(mutex_);
    return most_;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  int running_ = 0, most_ = 0;
};

TEST(InferenceServiceTest, TwoBatchesInFlightRunAtOnce) {
  auto backend = std::make_unique<RendezvousEvaluator>();
  RendezvousEvaluator* raw = backend.get();
  InferenceService service(std::move(backend), {.max_batch = 1, .max_wait_us = 0, .in_flight = 2});
  const Corpus& c = corpus();
  auto a = service.submit(c.inputs[0]);
  auto b = service.submit(c.inputs[1]);
  EXPECT_TRUE(same(a.get(), c.expected[0]));
  EXPECT_TRUE(same(b.get(), c.expected[1]));
  EXPECT_EQ(raw->most(), 2);
  const InferenceStats s = service.stats();
  EXPECT_EQ(s.batches, 2u);
  EXPECT_GT(s.busy_seconds, 0.0);
}

TEST(InferenceServiceTest, ManyProducersWithTwoBatchesInFlight) {
  InferenceService service(std::make_unique<ProbeEvaluator>(100us),
                           {.max_batch = 4, .max_wait_us = 500, .in_flight = 2});
  const Corpus& c = corpus();
  std::atomic<int> wrong{0};
  std::vector<std::thread> producers;
  for (int t = 0; t < 4; ++t)
    producers.emplace_back([&, t] {
      for (std::size_t i = static_cast<std::size_t>(t); i < c.inputs.size(); i += 4)
        wrong += !same(service.submit(c.inputs[i]).get(), c.expected[i]);
    });
  for (auto& p : producers) p.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(service.stats().positions, c.inputs.size());
}

TEST(InferenceServiceTest, AsyncEvaluationsOfOneCallerOverlapAndEachGetsItsOwn) {
  // One caller keeps two groups in flight (as a search thread with two mini-batches does): the
  // rendezvous backend only lets a batch through once a second one runs beside it.
  auto backend = std::make_unique<RendezvousEvaluator>();
  RendezvousEvaluator* raw = backend.get();
  InferenceService service(std::move(backend), {.max_batch = 2, .max_wait_us = 0, .in_flight = 2});
  const Corpus& c = corpus();
  std::vector<Evaluation> a(2), b(2);
  std::future<void> first = service.evaluate_async(std::span(&c.inputs[0], 2), a);
  std::future<void> second = service.evaluate_async(std::span(&c.inputs[2], 2), b);
  first.get();
  second.get();
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_TRUE(same(a[i], c.expected[i]));
    EXPECT_TRUE(same(b[i], c.expected[2 + i]));
  }
  EXPECT_EQ(raw->most(), 2);
  EXPECT_NO_THROW(service.evaluate_async({}, {}).get());
  EXPECT_THROW(service.evaluate_async(std::span(&c.inputs[0], 1), std::span(a.data(), 2)),
               std::invalid_argument);
}

TEST(InferenceServiceTest, AsyncEvaluationRethrowsTheBackendFailureAtGet) {
  InferenceService service(std::make_unique<SimEvaluator>(SimConfig{.fail_after = 1}),
                           {.max_batch = 4, .max_wait_us = 0});
  const Corpus& c = corpus();
  std::vector<Evaluation> out(1);
  service.evaluate_async(std::span(&c.inputs[0], 1), out).get();  // batch 1 works
  std::future<void> failing = service.evaluate_async(std::span(&c.inputs[1], 1), out);
  try {
    failing.get();
    ADD_FAILURE() << "the failed batch did not throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("injected device failure"), std::string::npos);
  }
  service.shutdown();
  EXPECT_THROW(service.evaluate_async(std::span(&c.inputs[0], 1), out), std::runtime_error);
}

TEST(InferenceServiceTest, RejectsBadConfig) {
  EXPECT_THROW(InferenceService(std::make_unique<ProbeEvaluator>(), {4, 10, 0}),
               std::invalid_argument);
  EXPECT_THROW(InferenceService(nullptr, {4, 10}), std::invalid_argument);
  EXPECT_THROW(InferenceService(std::make_unique<ProbeEvaluator>(), {0, 10}),
               std::invalid_argument);
  EXPECT_THROW(InferenceService(std::make_unique<ProbeEvaluator>(), {4, -1}),
               std::invalid_argument);
}

TEST(InferenceServiceTest, NameAndEmptyInput) {
  InferenceService service(std::make_unique<ProbeEvaluator>(), {4, 10});
  EXPECT_EQ(service.name(), "batched(probe)");
  service.evaluate({}, {});
  EXPECT_EQ(service.stats().batches, 0u);
}

}  // namespace
}  // namespace zh
