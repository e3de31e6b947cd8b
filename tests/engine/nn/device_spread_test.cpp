#include "engine/nn/device_spread.h"

#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/evaluator_loader.h"
#include "engine/nn/backends/uniform.h"
#include "nn_test_util.h"

namespace zh {
namespace {

// Records which threads called it.
class Counting final : public Evaluator {
 public:
  std::string name() const override { return "counting"; }
  void evaluate(std::span<const EvalInput> in, std::span<Evaluation> out) override {
    {
      std::lock_guard lock(mutex_);
      threads_.insert(std::this_thread::get_id());
      ++calls_;
    }
    UniformEvaluator().evaluate(in, out);
  }
  std::set<std::thread::id> threads() const {
    std::lock_guard lock(mutex_);
    return threads_;
  }
  int calls() const {
    std::lock_guard lock(mutex_);
    return calls_;
  }

 private:
  mutable std::mutex mutex_;
  std::set<std::thread::id> threads_;
  int calls_ = 0;
};

TEST(DeviceSpreadTest, ThreadsAreDealtOutInTurnAndStayOnTheirDevice) {
  auto a = std::make_shared<Counting>(), b = std::make_shared<Counting>();
  DeviceSpread spread({a, b});
  const std::vector<EvalInput> in{{Position(), 0}};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      std::vector<Evaluation> out(1);
      for (int i = 0; i < 5; ++i) spread.evaluate(in, out);
      EXPECT_EQ(out[0].priors.size(), 20u);
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(a->threads().size(), 2u);
  EXPECT_EQ(b->threads().size(), 2u);
  EXPECT_EQ(a->calls(), 10);
  EXPECT_EQ(b->calls(), 10);
  for (const auto& id : a->threads()) EXPECT_EQ(b->threads().count(id), 0u);
}

// A thread's producer_started and producer_stopped go to its own device only, the one its
// batches go to, so that device's service knows when the thread waits on it.
TEST(DeviceSpreadTest, AProducerIsCountedOnItsOwnDevice) {
  auto a = std::make_shared<test::ProducerCounter>(), b = std::make_shared<test::ProducerCounter>();
  DeviceSpread spread({a, b});
  std::thread([&] {
    const ProducerScope producer(spread);  // the first thread: device a
    EXPECT_EQ(a->producers.load(), 1);
    EXPECT_EQ(b->producers.load(), 0);
    std::thread([&] {
      const ProducerScope second(spread);  // the next: device b
      EXPECT_EQ(b->producers.load(), 1);
    }).join();
    EXPECT_EQ(b->producers.load(), 0);
  }).join();
  EXPECT_EQ(a->producers.load(), 0);
}

TEST(DeviceSpreadTest, ADeviceListMakesOneServicePerDevice) {
  Options options;
  declare_evaluator_options(options);
  options.set("backend", "sim");
  options.set("backend_options", "fixed_us=0,per_position_us=0");
  options.set("device", "cuda:0, cuda:1");
  const LoadedEvaluator loaded = load_evaluator(options, LoadPolicy::exact());
  ASSERT_EQ(loaded.services.size(), 2u);
  EXPECT_NE(loaded.services[0], loaded.services[1]);
  EXPECT_EQ(loaded.service, loaded.services[0]);
  std::vector<Evaluation> out(1);
  const std::vector<EvalInput> in{{Position(), 0}};
  std::thread([&] { loaded.evaluator->evaluate(in, out); }).join();
  std::thread([&] { loaded.evaluator->evaluate(in, out); }).join();
  EXPECT_EQ(loaded.services[0]->stats().positions, 1u);
  EXPECT_EQ(loaded.services[1]->stats().positions, 1u);
  EXPECT_EQ(loaded.service_stats().positions, 2u);

  options.set("device", "cuda:0,,cuda:1");
  EXPECT_THROW(load_evaluator(options, LoadPolicy::exact()), EvaluatorConfigError);
}

TEST(DeviceSpreadTest, RejectsAnEmptyList) {
  EXPECT_THROW(DeviceSpread({}), std::invalid_argument);
}

}  // namespace
}  // namespace zh
