#include "engine/nn/failover_evaluator.h"

#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/evaluator_loader.h"
#include "engine/nn/backends/material.h"
#include "engine/nn/backends/sim.h"
#include "engine/nn/backends/uniform.h"
#include "engine/nn/inference_service.h"
#include "nn_test_util.h"
#include "tests/support/fake_clock.h"

namespace zh {
namespace {

using namespace std::chrono_literals;

struct Logged {
  std::vector<std::pair<bool, std::string>> lines;
  FailoverEvaluator::Log sink() {
    return [this](bool healthy, const std::string& line) { lines.emplace_back(healthy, line); };
  }
};

const std::vector<EvalInput>& one_position() {
  static const std::vector<EvalInput> in{{Position(), 0}};
  return in;
}

// Sim with no latency: batches 1-2 work, 3-5 fail, then it works again.
std::shared_ptr<SimEvaluator> flaky_sim() {
  return std::make_shared<SimEvaluator>(SimConfig{.fail_after = 2, .fail_batches = 3});
}

TEST(FailoverEvaluatorTest, AFailingDeviceFallsBackAndRecoversThroughProbes) {
  test::FakeClock clock;
  Logged log;
  auto sim = flaky_sim();
  FailoverEvaluator f(sim, std::make_shared<MaterialEvaluator>(), 1000ms, log.sink(), clock);
  std::vector<Evaluation> out(1);
  const float sim_value = SimEvaluator::value_of(Position());
  const float material_value = MaterialEvaluator::value_of(Position());
  ASSERT_NE(sim_value, material_value);

  for (int i = 0; i < 2; ++i) {  // batches 1, 2: the device
    f.evaluate(one_position(), out);
    EXPECT_EQ(out[0].value, sim_value);
  }
  EXPECT_TRUE(f.healthy());
  f.evaluate(one_position(), out);  // batch 3 fails: the fallback answers instead
  EXPECT_EQ(out[0].value, material_value);
  EXPECT_FALSE(f.healthy());
  ASSERT_EQ(log.lines.size(), 1u);
  EXPECT_FALSE(log.lines[0].first);
  EXPECT_NE(log.lines[0].second.find("FAILED"), std::string::npos);
  EXPECT_NE(log.lines[0].second.find("injected device failure"), std::string::npos);

  // Before retry_after: the device is not asked at all.
  f.evaluate(one_position(), out);
  EXPECT_EQ(out[0].value, material_value);
  EXPECT_EQ(sim->batches(), 3);

  // Each probe after retry_after costs a device batch; batches 4 and 5 still fail.
  for (int probe = 4; probe <= 5; ++probe) {
    clock.advance(1000ms);
    f.evaluate(one_position(), out);
    EXPECT_EQ(out[0].value, material_value);
    EXPECT_EQ(sim->batches(), probe);
    EXPECT_FALSE(f.healthy());
  }
  clock.advance(1000ms);
  f.evaluate(one_position(), out);  // batch 6 works: back on the device
  EXPECT_EQ(out[0].value, sim_value);
  EXPECT_TRUE(f.healthy());
  ASSERT_EQ(log.lines.size(), 2u);
  EXPECT_TRUE(log.lines[1].first);

  const FailoverStats s = f.stats();
  EXPECT_EQ(s.failures, 3u);
  EXPECT_EQ(s.outages, 1u);
  EXPECT_EQ(s.fallback_positions, 4u);
  EXPECT_TRUE(s.healthy);
}

// A batch that was already on the device when it failed may still come back fine: only a probe
// ends the outage.
// A producer's batches go to the primary or the fallback as the route says: both count it.
TEST(FailoverEvaluatorTest, AProducerIsCountedOnBothEvaluators) {
  auto primary = std::make_shared<test::ProducerCounter>();
  auto fallback = std::make_shared<test::ProducerCounter>();
  FailoverEvaluator f(primary, fallback, 1000ms);
  {
    const ProducerScope producer(f);
    EXPECT_EQ(primary->producers.load(), 1);
    EXPECT_EQ(fallback->producers.load(), 1);
  }
  EXPECT_EQ(primary->producers.load(), 0);
  EXPECT_EQ(fallback->producers.load(), 0);
}

TEST(FailoverEvaluatorTest, OnlyAProbeEndsAnOutage) {
  class Gate final : public Evaluator {
   public:
    std::string name() const override { return "gate"; }
    void evaluate(std::span<const EvalInput> in, std::span<Evaluation> out) override {
      if (fail) throw std::runtime_error("device lost");
      if (on_call) on_call();
      UniformEvaluator().evaluate(in, out);
    }
    bool fail = false;
    std::function<void()> on_call;
  };
  test::FakeClock clock;
  auto gate = std::make_shared<Gate>();
  FailoverEvaluator f(gate, std::make_shared<MaterialEvaluator>(), 1000ms, {}, clock);
  std::vector<Evaluation> out(1);
  // While this call is inside the device, another one fails.
  gate->on_call = [&] {
    gate->on_call = nullptr;
    gate->fail = true;
    std::vector<Evaluation> other(1);
    f.evaluate(one_position(), other);
    gate->fail = false;
  };
  f.evaluate(one_position(), out);
  EXPECT_FALSE(f.healthy()) << "the earlier batch's success must not hide the failure";
}

TEST(FailoverEvaluatorTest, AnAsyncBatchThatFailsIsEvaluatedAgainByTheFallbackAtGet) {
  test::FakeClock clock;
  Logged log;
  auto device = std::make_shared<InferenceService>(
      std::make_unique<SimEvaluator>(SimConfig{.fail_after = 1, .fail_batches = 1}),
      InferenceServiceConfig{.max_batch = 4, .max_wait_us = 0});
  FailoverEvaluator f(device, std::make_shared<MaterialEvaluator>(), 1000ms, log.sink(), clock);
  std::vector<Evaluation> a(1), b(1);
  f.evaluate_async(one_position(), a).get();  // batch 1: the device
  EXPECT_EQ(a[0].value, SimEvaluator::value_of(Position()));
  std::future<void> failing = f.evaluate_async(one_position(), b);  // batch 2 fails
  failing.get();  // does not throw: the fallback answered, on this thread
  EXPECT_EQ(b[0].value, MaterialEvaluator::value_of(Position()));
  EXPECT_FALSE(f.healthy());
  EXPECT_EQ(f.stats().fallback_positions, 1u);
  ASSERT_EQ(log.lines.size(), 1u);
  // The probe after retry_after goes out asynchronously too, and brings the device back.
  clock.advance(1000ms);
  f.evaluate_async(one_position(), a).get();
  EXPECT_EQ(a[0].value, SimEvaluator::value_of(Position()));
  EXPECT_TRUE(f.healthy());
}

TEST(FailoverEvaluatorTest, TheLoaderPutsItInFrontOfADeviceOnly) {
  Options options;
  declare_evaluator_options(options);
  options.set("backend", "sim");
  const LoadedEvaluator sim = load_evaluator(options, LoadPolicy::exact());
  ASSERT_TRUE(sim.failover);
  EXPECT_EQ(sim.evaluator, sim.failover);
  EXPECT_EQ(sim.failover->fallback().name(), "material");
  options.set("failover", "false");
  EXPECT_FALSE(load_evaluator(options, LoadPolicy::exact()).failover);
  options.set("failover", "true");
  options.set("backend", "material");
  EXPECT_FALSE(load_evaluator(options, LoadPolicy{false, true}).failover);
}

TEST(FailoverEvaluatorTest, RejectsMissingEvaluators) {
  EXPECT_THROW(FailoverEvaluator(nullptr, std::make_shared<MaterialEvaluator>(), 1ms),
               std::invalid_argument);
}

}  // namespace
}  // namespace zh
