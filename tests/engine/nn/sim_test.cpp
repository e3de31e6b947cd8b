#include "engine/nn/backends/sim.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/chess/game.h"
#include "engine/evaluator_loader.h"

namespace zh {
namespace {

using namespace std::chrono_literals;

std::vector<EvalInput> some_positions() {
  std::vector<EvalInput> out;
  Game game;
  for (const char* m : {"e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5"}) {
    out.push_back({game.position(), 0});
    game.play_uci(m);
  }
  out.push_back({Position::from_fen("2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1"), 0});
  return out;
}

SimConfig instant() { return SimConfig{}; }

TEST(SimEvaluatorTest, ValuesAndPriorsAreDeterministicAndWellFormed) {
  const auto inputs = some_positions();
  SimEvaluator a(instant()), b(instant());
  std::vector<Evaluation> x(inputs.size()), y(inputs.size());
  a.evaluate(inputs, x);
  b.evaluate(inputs, y);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(x[i].value, y[i].value);
    EXPECT_GT(x[i].value, -1.0f);
    EXPECT_LT(x[i].value, 1.0f);
    ASSERT_EQ(x[i].priors.size(), std::size_t(inputs[i].position.count_legal_moves()));
    double sum = 0;
    for (std::size_t k = 0; k < x[i].priors.size(); ++k) {
      EXPECT_EQ(x[i].priors[k].move, y[i].priors[k].move);
      EXPECT_EQ(x[i].priors[k].prior, y[i].priors[k].prior);
      sum += x[i].priors[k].prior;
    }
    EXPECT_NEAR(sum, 1.0, 1e-4);
  }
  // Different positions get different values (a hash, not a constant).
  EXPECT_NE(x[0].value, x[1].value);
}

TEST(SimEvaluatorTest, ABatchTakesItsLatencyAndTheDeviceRunsOneBatchAtATime) {
  SimEvaluator sim(SimConfig{.fixed_us = 10000, .per_position_us = 1000});
  EXPECT_EQ(sim.latency(10), 20000us);
  EXPECT_NEAR(sim.positions_per_second(10), 500.0, 1e-9);
  const auto inputs = some_positions();
  const auto start = std::chrono::steady_clock::now();
  // Two callers at once: the second queues behind the first on the one device.
  std::thread other([&] {
    std::vector<Evaluation> out(inputs.size());
    sim.evaluate(inputs, out);
  });
  std::vector<Evaluation> out(inputs.size());
  sim.evaluate(inputs, out);
  other.join();
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_GE(elapsed, 2 * sim.latency(int(inputs.size())));
  EXPECT_EQ(sim.batches(), 2);
  EXPECT_NEAR(sim.busy_seconds(), 2 * 17000e-6, 1e-9);
}

TEST(SimEvaluatorTest, FailsForAWindowOfBatchesThenRecovers) {
  SimEvaluator sim(SimConfig{.fail_after = 2, .fail_batches = 3});
  const auto inputs = some_positions();
  std::vector<Evaluation> out(inputs.size());
  std::vector<bool> failed;
  for (int i = 0; i < 7; ++i) {
    try {
      sim.evaluate(inputs, out);
      failed.push_back(false);
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("injected device failure"), std::string::npos);
      failed.push_back(true);
    }
  }
  EXPECT_EQ(failed, (std::vector<bool>{false, false, true, true, true, false, false}));
}

TEST(SimEvaluatorTest, FailsForeverAfterNWhenNoWindowIsGiven) {
  SimEvaluator sim(SimConfig{.fail_after = 1});
  const auto inputs = some_positions();
  std::vector<Evaluation> out(inputs.size());
  EXPECT_NO_THROW(sim.evaluate(inputs, out));
  for (int i = 0; i < 5; ++i) EXPECT_THROW(sim.evaluate(inputs, out), std::runtime_error);
}

TEST(SimEvaluatorTest, FailsTheGivenShareOfBatches) {
  SimEvaluator sim(SimConfig{.fail_rate = 0.25});
  const std::vector<EvalInput> one{{Position(), 0}};
  std::vector<Evaluation> out(1);
  int failures = 0;
  for (int i = 0; i < 2000; ++i) {
    try {
      sim.evaluate(one, out);
    } catch (const std::runtime_error&) {
      ++failures;
    }
  }
  EXPECT_GT(failures, 400);
  EXPECT_LT(failures, 600);
}

TEST(SimEvaluatorTest, ItsSettingsAreOneStringOverTheDefaults) {
  const SimConfig d = parse_sim_options("");
  EXPECT_DOUBLE_EQ(d.fixed_us, 190.0);
  EXPECT_DOUBLE_EQ(d.per_position_us, 8.9);
  EXPECT_EQ(d.fail_after, 0);
  const SimConfig c = parse_sim_options("fixed_us=200,fail_after=20,fail_rate=0.25");
  EXPECT_DOUBLE_EQ(c.fixed_us, 200.0);
  EXPECT_DOUBLE_EQ(c.per_position_us, 8.9);
  EXPECT_EQ(c.fail_after, 20);
  EXPECT_DOUBLE_EQ(c.fail_rate, 0.25);
  for (const char* bad : {"fixed=1", "fail_after=x", "fail_after=2x", "fixed_us"}) {
    try {
      parse_sim_options(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("backend_options"), std::string::npos) << e.what();
    }
  }
  // Another backend takes none: a setting meant for the sim is refused, not ignored.
  EvaluatorConfig material = default_evaluator_config();
  material.backend = "material";
  material.backend_options = "fixed_us=1";
  EXPECT_THROW(make_evaluator(material), std::runtime_error);
}

TEST(SimEvaluatorTest, RejectsBadConfig) {
  EXPECT_THROW(SimEvaluator(SimConfig{.fixed_us = -1}), std::invalid_argument);
  EXPECT_THROW(SimEvaluator(SimConfig{.fail_rate = 1.5}), std::invalid_argument);
}

TEST(SimEvaluatorTest, TheOptionsBuildItBehindAServiceWithTwoBatchesInFlight) {
  Options options;
  declare_evaluator_options(options);
  options.set("backend", "sim");
  options.set("backend_options", "fixed_us=0,per_position_us=0");
  const LoadedEvaluator loaded = load_evaluator(options, LoadPolicy::exact());
  ASSERT_TRUE(loaded.service);
  EXPECT_EQ(loaded.backend, "sim");
  EXPECT_EQ(loaded.service->config().in_flight, 2);
  EXPECT_EQ(loaded.service->backend().name(), "sim");
  // The CPU keeps one batch in flight.
  options.set("backend", "material");
  EXPECT_EQ(inference_service_config(options).in_flight, 1);
  options.set("batches_in_flight", "3");
  EXPECT_EQ(inference_service_config(options).in_flight, 3);
}

}  // namespace
}  // namespace zh
