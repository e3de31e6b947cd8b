#include "engine/nn/failover_evaluator.h"

#include <exception>
#include <future>
#include <stdexcept>
#include <utility>

namespace zh {

FailoverEvaluator::FailoverEvaluator(std::shared_ptr<Evaluator> primary,
                                     std::shared_ptr<Evaluator> fallback,
                                     std::chrono::milliseconds retry_after, Log log, Clock& clock)
    : primary_(std::move(primary)),
      fallback_(std::move(fallback)),
      retry_after_(retry_after),
      log_(std::move(log)),
      clock_(clock) {
  if (!primary_ || !fallback_)
    throw std::invalid_argument("FailoverEvaluator needs a primary and a fallback evaluator");
}

FailoverStats FailoverEvaluator::stats() const {
  std::lock_guard lock(mutex_);
  FailoverStats s = stats_;
  s.healthy = healthy();
  return s;
}

// Healthy: always. Unhealthy: one caller at a time (the probe), once retry_after has passed.
FailoverEvaluator::Route FailoverEvaluator::route() {
  if (healthy()) return Route::kPrimary;
  std::lock_guard lock(mutex_);
  if (probing_ || clock_.now() < next_probe_) return Route::kFallback;
  probing_ = true;
  return Route::kProbe;
}

// Only a probe brings the device back: a batch that was already running when the device failed
// may still come back fine, and must not undo the outage.
void FailoverEvaluator::probe_worked() {
  std::string line;
  {
    std::lock_guard lock(mutex_);
    probing_ = false;
    healthy_.store(true, std::memory_order_release);
    line = "evaluator '" + primary_->name() + "' works again: games are back on it and new " +
           "challenges are accepted";
  }
  if (log_) log_(true, line);
}

void FailoverEvaluator::primary_failed(const std::string& what) {
  std::string line;
  {
    std::lock_guard lock(mutex_);
    ++stats_.failures;
    stats_.last_error = what;
    probing_ = false;
    next_probe_ = clock_.now() + retry_after_;
    if (healthy()) {
      healthy_.store(false, std::memory_order_release);
      ++stats_.outages;
      line = "evaluator '" + primary_->name() + "' FAILED (" + what + "): running games go on " +
             "with '" + fallback_->name() + "', new challenges are declined (later) and " +
             "/healthz reports unhealthy until it works again (retried every " +
             std::to_string(retry_after_.count()) + " ms)";
    }
  }
  if (log_ && !line.empty()) log_(false, line);
}

void FailoverEvaluator::conclude(Route r, std::exception_ptr failure,
                                 std::span<const EvalInput> inputs, std::span<Evaluation> outputs) {
  if (r != Route::kFallback) {
    if (!failure) {
      if (r == Route::kProbe) probe_worked();
      return;
    }
    try {
      std::rethrow_exception(failure);
    } catch (const std::exception& e) {
      primary_failed(e.what());
    } catch (...) {
      primary_failed("unknown error");
    }
  }
  fallback_->evaluate(inputs, outputs);  // its failure is the caller's: nothing else is left
  std::lock_guard lock(mutex_);
  stats_.fallback_positions += inputs.size();
}

void FailoverEvaluator::evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) {
  const Route r = route();
  std::exception_ptr failure;
  if (r != Route::kFallback) {
    try {
      primary_->evaluate(inputs, outputs);
    } catch (...) {
      failure = std::current_exception();
    }
  }
  conclude(r, failure, inputs, outputs);
}

std::future<void> FailoverEvaluator::evaluate_async(std::span<const EvalInput> inputs,
                                                    std::span<Evaluation> outputs) {
  const Route r = route();
  std::future<void> primary;
  std::exception_ptr failure;
  if (r != Route::kFallback) {
    try {
      primary = primary_->evaluate_async(inputs, outputs);
    } catch (...) {
      failure = std::current_exception();
    }
  }
  // Deferred: runs in the caller's get(), so the fallback never runs on a service worker.
  return std::async(std::launch::deferred,
                    [this, r, inputs, outputs, failure, primary = std::move(primary)]() mutable {
                      std::exception_ptr error = failure;
                      if (primary.valid()) {
                        try {
                          primary.get();
                        } catch (...) {
                          error = std::current_exception();
                        }
                      }
                      conclude(r, error, inputs, outputs);
                    });
}

}  // namespace zh
