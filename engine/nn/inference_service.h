#pragma once
// One InferenceService per loaded model and device: every search thread of every game hands
// its leaves to it, and one worker thread runs them through the backend in batches, so one
// network (one GPU, or the CPU's oneDNN kernels at their efficient batch size) serves all.
//
// A batch closes when it holds max_batch positions, when its oldest position has waited
// max_wait_us, or when every producer (a search thread between producer_started() and
// producer_stopped()) is blocked in evaluate() waiting on the service, so that nobody can add to
// it: one search thread on a CPU then never waits max_wait_us a batch for company that cannot
// come. `in_flight` worker threads each run one batch at a time,
// so with 2 the host gathers (and the backend encodes) the next batch while the device runs
// the current one; 1 is right for a CPU backend, which has no device to keep busy. Thread-safe;
// itself an Evaluator, so the search can use it wherever it would use the backend.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/nn/evaluator.h"
#include "engine/util/clock.h"

namespace zh {

// Filled from the evaluator options (engine/evaluator_loader.h), where the defaults live.
struct InferenceServiceConfig {
  int max_batch;
  // Long enough for a few search threads to add their leaves, short against a CPU forward
  // pass of a 6x64 net at batch 16 (~6 ms); docs/performance.md, "No wait for company that
  // cannot come", has the measurement.
  int max_wait_us;
  int in_flight = 1;  // batches run at once (worker threads), >= 1
};

// Counters for metrics; all since construction.
struct InferenceStats {
  std::uint64_t positions = 0;      // evaluated (or failed) positions
  std::uint64_t batches = 0;        // backend calls
  std::uint64_t failed = 0;         // positions whose batch threw
  double mean_batch_fill = 0.0;     // positions per batch
  double mean_fill_ratio = 0.0;     // mean_batch_fill / max_batch
  double mean_queue_wait_us = 0.0;  // per position: submission -> its batch starts
  double mean_forward_us = 0.0;     // per batch: the backend's evaluate()
  double busy_seconds = 0.0;        // wall time during which at least one batch ran
};

// Several services' figures as one (devices side by side): sums, and means weighted by batches
// and positions; busy_seconds is the sum (device-seconds).
InferenceStats combine_stats(const std::vector<InferenceStats>& all, int max_batch);

class InferenceService final : public Evaluator {
 public:
  // Throws std::invalid_argument for a null backend, max_batch < 1, max_wait_us < 0 or
  // in_flight < 1. `clock` times the batch deadline (max_wait_us) and the statistics.
  InferenceService(std::unique_ptr<Evaluator> backend, InferenceServiceConfig config,
                   Clock& clock = steady_clock());
  // Completes every request already submitted, then stops the worker.
  ~InferenceService() override;
  InferenceService(const InferenceService&) = delete;
  InferenceService& operator=(const InferenceService&) = delete;

  std::string name() const override;
  // The backend behind the service (for tools that report on it, e.g. the sim's capacity).
  const Evaluator& backend() const { return *backend_; }

  // Blocking: evaluates the inputs (a single position or a small batch; they may be spread
  // over several backend batches) and returns when all are done. Throws a std::runtime_error
  // with the backend's message if one of their batches failed, and after shutdown().
  void evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) override;
  // Queues the inputs and returns; the future's get() waits for their batches and throws as
  // evaluate() does (see Evaluator). Throws std::runtime_error after shutdown().
  std::future<void> evaluate_async(std::span<const EvalInput> inputs,
                                   std::span<Evaluation> outputs) override;
  void producer_started() override;
  void producer_stopped() override;

  // Non-blocking: one position, its result through the future (which rethrows a backend
  // failure). Throws std::runtime_error after shutdown().
  std::future<Evaluation> submit(const EvalInput& input);

  // Non-blocking with a callback, called on the worker thread with the result or a
  // std::runtime_error with the backend's message (exactly one of them is set). Throws
  // std::runtime_error after shutdown().
  using Callback = std::function<void(Evaluation*, std::exception_ptr)>;
  void submit(const EvalInput& input, Callback done);

  // Stops accepting requests, finishes the queued ones, joins the worker. Idempotent.
  void shutdown();

  InferenceStats stats() const;
  const InferenceServiceConfig& config() const { return config_; }

 private:
  // One caller's request group: outputs to fill and a completion to run when all are in.
  struct Group {
    std::span<Evaluation> outputs;
    std::size_t remaining = 0;  // guarded by the service's mutex_
    // The message of the first of its batches that failed (guarded by the service's mutex_).
    // A message, not the exception: an exception object is reference-counted inside libstdc++,
    // out of ThreadSanitizer's sight, so one shared by groups that end on different threads
    // reads as a race. Each group holds its own copy; callers get exceptions of their own.
    std::optional<std::string> failure;
    std::function<void(const std::optional<std::string>& failure)> on_done;
    bool caller_waits = false;  // from evaluate(): its caller is blocked until it is done
  };
  struct Request {
    const EvalInput* input;
    std::size_t slot;  // index into group->outputs
    std::shared_ptr<Group> group;
    TimePoint submitted;
  };

  void enqueue(std::span<const EvalInput> inputs, std::shared_ptr<Group> group);
  std::future<void> start(std::span<const EvalInput> inputs, std::span<Evaluation> outputs,
                          bool caller_waits);
  // Every producer is blocked in evaluate(): no request can come before a batch runs. Under
  // mutex_.
  bool all_producers_wait() const { return producers_ > 0 && waiting_callers_ >= producers_; }
  void run();
  void finish(std::vector<Request>& batch, const std::optional<std::string>& failure);

  std::unique_ptr<Evaluator> backend_;
  const InferenceServiceConfig config_;
  Clock& clock_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Request> queue_;
  bool stopping_ = false;
  int producers_ = 0;        // producer_started() less producer_stopped()
  int waiting_callers_ = 0;  // evaluate() calls whose group is not done

  // Counters (guarded by mutex_).
  std::uint64_t positions_ = 0, batches_ = 0, failed_ = 0;
  double queue_wait_us_sum_ = 0.0, forward_us_sum_ = 0.0;
  int running_ = 0;  // batches in the backend now
  TimePoint busy_since_{};
  double busy_us_ = 0.0;

  std::vector<std::thread> workers_;  // last: start after everything above is initialised
};

}  // namespace zh
