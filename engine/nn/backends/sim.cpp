#include "engine/nn/backends/sim.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>

#include "engine/nn/backends/builtin_backends.h"
#include "engine/util/clock.h"

namespace zh {
namespace {

// splitmix64: a well-mixed 64-bit hash, so nearby keys give unrelated outputs.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// In [0, 1).
double unit(std::uint64_t h) { return static_cast<double>(h >> 11) * 0x1.0p-53; }

}  // namespace

SimConfig sim_config_of(BackendOptions& own) {
  SimConfig c = kSimDefaults;
  c.fixed_us = own.take_number("fixed_us", c.fixed_us);
  c.per_position_us = own.take_number("per_position_us", c.per_position_us);
  c.fail_after = own.take_number("fail_after", c.fail_after);
  c.fail_batches = own.take_number("fail_batches", c.fail_batches);
  c.fail_rate = own.take_number("fail_rate", c.fail_rate);
  own.check_all_taken();
  return c;
}

SimConfig parse_sim_options(std::string_view text) {
  BackendOptions own("sim", text);
  return sim_config_of(own);
}

BackendRegistration sim_backend() {
  BackendRegistration b;
  b.name = "sim";
  b.priority = 10;  // for measurements and failure tests, never the default
  b.make = [](const EvaluatorConfig&, BackendOptions& own) -> std::unique_ptr<Evaluator> {
    return std::make_unique<SimEvaluator>(sim_config_of(own));
  };
  b.on_device = [](const EvaluatorConfig&) { return true; };  // whatever `device` says
  return b;
}

SimEvaluator::SimEvaluator(SimConfig config) : config_(config) {
  if (config_.fixed_us < 0 || config_.per_position_us < 0)
    throw std::invalid_argument("sim evaluator: latencies must be >= 0");
  if (config_.fail_rate < 0 || config_.fail_rate > 1)
    throw std::invalid_argument("sim evaluator: fail rate must be in [0, 1]");
  if (config_.fail_after < 0 || config_.fail_batches < 0)
    throw std::invalid_argument("sim evaluator: failure batch counts must be >= 0");
}

std::chrono::microseconds SimEvaluator::latency(int batch) const {
  return std::chrono::microseconds(
      std::llround(config_.fixed_us + config_.per_position_us * std::max(batch, 0)));
}

double SimEvaluator::positions_per_second(double batch) const {
  const double us = config_.fixed_us + config_.per_position_us * batch;
  return us > 0 ? batch * 1e6 / us : 0.0;
}

std::int64_t SimEvaluator::batches() const {
  std::lock_guard lock(mutex_);
  return batches_;
}

double SimEvaluator::busy_seconds() const {
  std::lock_guard lock(mutex_);
  return busy_us_ * 1e-6;
}

float SimEvaluator::value_of(const Position& pos) {
  // Within (-0.8, 0.8): a network rarely claims a certain result.
  return static_cast<float>(1.6 * unit(mix(pos.key())) - 0.8);
}

bool SimEvaluator::fails(std::int64_t n) const {
  if (config_.fail_after > 0 && n > config_.fail_after &&
      (config_.fail_batches == 0 || n <= config_.fail_after + config_.fail_batches))
    return true;
  return config_.fail_rate > 0 && unit(mix(~static_cast<std::uint64_t>(n))) < config_.fail_rate;
}

void SimEvaluator::evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) {
  if (inputs.size() != outputs.size())
    throw std::invalid_argument("sim evaluator: inputs and outputs differ in size");
  // Host work first (what encoding and the legal-move softmax cost a real backend): the
  // legal moves and deterministic priors, skewed like a trained policy (a few moves dominate).
  MoveList moves;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Position& pos = inputs[i].position;
    Evaluation& out = outputs[i];
    out.value = value_of(pos);
    out.priors.clear();
    pos.legal_moves(moves);
    if (moves.empty()) continue;
    out.priors.reserve(moves.size());
    double sum = 0;
    for (Move m : moves) {
      const double w = std::exp(4.0 * unit(mix(pos.key() ^ mix(m.raw()))));
      out.priors.push_back({m, static_cast<float>(w)});
      sum += w;
    }
    for (MovePrior& p : out.priors) p.prior = static_cast<float>(p.prior / sum);
  }
  // Then the device: queue behind whatever it is running, and sleep until this batch is done.
  const auto cost = latency(static_cast<int>(inputs.size()));
  std::chrono::steady_clock::time_point done;
  std::int64_t number;
  {
    std::lock_guard lock(mutex_);
    const auto start = std::max(zh::steady_clock().now(), device_free_);
    done = start + cost;
    device_free_ = done;
    number = ++batches_;
    busy_us_ += static_cast<double>(cost.count());
  }
  std::this_thread::sleep_until(done);
  if (fails(number))
    throw std::runtime_error("sim: injected device failure (batch " + std::to_string(number) + ")");
}

}  // namespace zh
