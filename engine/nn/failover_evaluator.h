#pragma once
// Keeps games moving when the device evaluator fails (a GPU that falls off the bus, runs out of
// memory, is reset): a failing batch is evaluated again by a fallback (the network on the CPU,
// else the material evaluator), the evaluator is marked unhealthy, and from then on positions go
// to the fallback while one probe every `retry_after` tries the device again; the first probe
// that succeeds makes it healthy and the games return to it. The bot polls healthy(): it turns
// /healthz red and declines new challenges with `later` while the device is down.
//
// Thread-safe (both evaluators must be too: an InferenceService, material, uniform).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "engine/nn/evaluator.h"
#include "engine/util/clock.h"

namespace zh {

struct FailoverStats {
  bool healthy = true;
  std::uint64_t failures = 0;            // primary batches that threw
  std::uint64_t fallback_positions = 0;  // positions the fallback evaluated
  std::uint64_t outages = 0;             // healthy -> unhealthy transitions
  std::string last_error;
};

class FailoverEvaluator final : public Evaluator {
 public:
  // Called on the transitions (down, up) with a line for the operator's log.
  using Log = std::function<void(bool healthy, const std::string& line)>;

  // Throws std::invalid_argument for a null evaluator.
  FailoverEvaluator(std::shared_ptr<Evaluator> primary, std::shared_ptr<Evaluator> fallback,
                    std::chrono::milliseconds retry_after, Log log = {},
                    Clock& clock = steady_clock());

  std::string name() const override { return primary_->name(); }
  void evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) override;
  // The primary's batch goes out at once; a failure of it is handled (the fallback evaluates
  // the inputs again, the outage is logged) on the thread that calls the future's get().
  std::future<void> evaluate_async(std::span<const EvalInput> inputs,
                                   std::span<Evaluation> outputs) override;
  // To both: a producer's batches go to either, as the route says.
  void producer_started() override {
    primary_->producer_started();
    fallback_->producer_started();
  }
  void producer_stopped() override {
    primary_->producer_stopped();
    fallback_->producer_stopped();
  }

  bool healthy() const { return healthy_.load(std::memory_order_acquire); }
  FailoverStats stats() const;
  const Evaluator& primary() const { return *primary_; }
  const Evaluator& fallback() const { return *fallback_; }

 private:
  enum class Route { kPrimary, kProbe, kFallback };
  Route route();
  void probe_worked();
  void primary_failed(const std::string& what);
  // After the primary's attempt (`failure` null when it worked, or none on the fallback route).
  void conclude(Route route, std::exception_ptr failure, std::span<const EvalInput> inputs,
                std::span<Evaluation> outputs);

  std::shared_ptr<Evaluator> primary_, fallback_;
  const std::chrono::milliseconds retry_after_;
  Log log_;
  Clock& clock_;  // when the next probe is due
  std::atomic<bool> healthy_{true};
  mutable std::mutex mutex_;
  TimePoint next_probe_{};
  bool probing_ = false;  // one probe at a time while unhealthy
  FailoverStats stats_;
};

}  // namespace zh
