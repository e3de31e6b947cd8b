#include "engine/nn/inference_service.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace zh {

InferenceService::InferenceService(std::unique_ptr<Evaluator> backend,
                                   InferenceServiceConfig config, Clock& clock)
    : backend_(std::move(backend)), config_(config), clock_(clock) {
  if (!backend_) throw std::invalid_argument("InferenceService needs a backend");
  if (config_.max_batch < 1)
    throw std::invalid_argument("InferenceService: max_batch must be >= 1");
  if (config_.max_wait_us < 0)
    throw std::invalid_argument("InferenceService: max_wait_us must be >= 0");
  if (config_.in_flight < 1)
    throw std::invalid_argument("InferenceService: in_flight must be >= 1");
  for (int i = 0; i < config_.in_flight; ++i) workers_.emplace_back([this] { run(); });
}

InferenceService::~InferenceService() { shutdown(); }

std::string InferenceService::name() const { return "batched(" + backend_->name() + ")"; }

void InferenceService::shutdown() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& w : workers_)
    if (w.joinable() && w.get_id() != std::this_thread::get_id()) w.join();
}

void InferenceService::enqueue(std::span<const EvalInput> inputs, std::shared_ptr<Group> group) {
  const auto now = clock_.now();
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) throw std::runtime_error("inference service is shut down");
    group->remaining = inputs.size();
    if (group->caller_waits) ++waiting_callers_;
    const bool was_empty = queue_.empty();
    // The last request takes the caller's reference: from here only the workers hold the group.
    for (std::size_t i = 0; i < inputs.size(); ++i)
      queue_.push_back({&inputs[i], i, i + 1 == inputs.size() ? std::move(group) : group, now});
    // The worker sleeps either for the first request, for a full batch or for the last
    // producer to block; other arrivals need not wake it.
    wake = was_empty || queue_.size() >= static_cast<std::size_t>(config_.max_batch) ||
           all_producers_wait();
  }
  if (wake) wake_.notify_one();
}

void InferenceService::evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) {
  start(inputs, outputs, /*caller_waits=*/true).get();  // rethrows a backend failure
}

void InferenceService::producer_started() {
  std::lock_guard lock(mutex_);
  ++producers_;
}

void InferenceService::producer_stopped() {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    --producers_;
    wake = !queue_.empty() && all_producers_wait();  // the one still to come has gone
  }
  if (wake) wake_.notify_all();
}

namespace {

std::string message_of(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown error";
  }
}

}  // namespace

std::future<void> InferenceService::evaluate_async(std::span<const EvalInput> inputs,
                                                   std::span<Evaluation> outputs) {
  return start(inputs, outputs, /*caller_waits=*/false);
}

std::future<void> InferenceService::start(std::span<const EvalInput> inputs,
                                          std::span<Evaluation> outputs, bool caller_waits) {
  if (inputs.size() != outputs.size())
    throw std::invalid_argument("InferenceService::evaluate: inputs and outputs differ in size");
  if (inputs.empty()) return std::async(std::launch::deferred, [] {});
  // The worker answers with the failure's message (none when the batch worked), and the caller
  // makes its own exception of it in get(), so no exception object is shared between threads
  // (see Group). The promise lives in the group (which the worker holds while completing it),
  // so the caller may return and unwind the moment the future is ready.
  auto done = std::make_shared<std::promise<std::optional<std::string>>>();
  std::future<std::optional<std::string>> answered = done->get_future();
  auto group = std::make_shared<Group>();
  group->outputs = outputs;
  group->caller_waits = caller_waits;
  group->on_done = [done](const std::optional<std::string>& failure) { done->set_value(failure); };
  enqueue(inputs, std::move(group));
  return std::async(std::launch::deferred, [answered = std::move(answered)]() mutable {
    if (const std::optional<std::string> failure = answered.get())
      throw std::runtime_error(*failure);
  });
}

std::future<Evaluation> InferenceService::submit(const EvalInput& input) {
  auto promise = std::make_shared<std::promise<Evaluation>>();
  std::future<Evaluation> result = promise->get_future();
  submit(input, [promise](Evaluation* out, std::exception_ptr error) {
    if (error)
      promise->set_exception(error);
    else
      promise->set_value(std::move(*out));
  });
  return result;
}

void InferenceService::submit(const EvalInput& input, Callback done) {
  // The request owns its input and output, so the caller need not keep them alive.
  struct Owned {
    EvalInput input;
    Evaluation output;
  };
  auto owned = std::make_shared<Owned>(Owned{input, {}});
  auto group = std::make_shared<Group>();
  group->outputs = std::span<Evaluation>(&owned->output, 1);
  group->on_done = [owned, done = std::move(done)](const std::optional<std::string>& failure) {
    if (failure)
      done(nullptr, std::make_exception_ptr(std::runtime_error(*failure)));
    else
      done(&owned->output, nullptr);
  };
  enqueue(std::span<const EvalInput>(&owned->input, 1), std::move(group));
}

void InferenceService::run() {
  const auto max_batch = static_cast<std::size_t>(config_.max_batch);
  const auto max_wait = std::chrono::microseconds(config_.max_wait_us);
  std::vector<Request> batch;
  std::vector<EvalInput> inputs;
  std::vector<Evaluation> outputs;
  batch.reserve(max_batch);
  inputs.reserve(max_batch);
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      // Fill up until the oldest request has waited max_wait, or no request can come (every
      // producer waits on us), or we are draining. The oldest is looked up again after each
      // wake: another worker may have taken the batch.
      const auto closes = [&] {
        return queue_.size() >= max_batch || stopping_ || all_producers_wait();
      };
      for (;;) {
        wake_.wait(lock, [&] { return !queue_.empty() || stopping_; });
        if (queue_.empty()) return;  // stopping, nothing left
        const auto deadline = queue_.front().submitted + max_wait;
        if (closes() || clock_.now() >= deadline) break;
        clock_.wait_until(lock, wake_, deadline, closes);
      }
      const std::size_t n = std::min(max_batch, queue_.size());
      batch.assign(std::make_move_iterator(queue_.begin()),
                   std::make_move_iterator(queue_.begin() + static_cast<std::ptrdiff_t>(n)));
      queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
      if (running_++ == 0) busy_since_ = clock_.now();
      // What is left is the next batch: another worker may start gathering it now.
      if (!queue_.empty() && config_.in_flight > 1) wake_.notify_one();
    }
    const auto started = clock_.now();
    double waited_us = 0.0;
    inputs.clear();
    for (const Request& r : batch) {
      inputs.push_back(*r.input);
      waited_us += std::chrono::duration<double, std::micro>(started - r.submitted).count();
    }
    outputs.resize(batch.size());
    std::optional<std::string> failure;
    try {
      backend_->evaluate(inputs, outputs);
    } catch (...) {
      failure = message_of(std::current_exception());  // the exception stays on this thread
    }
    const double forward_us =
        std::chrono::duration<double, std::micro>(clock_.now() - started).count();
    if (!failure)
      for (std::size_t i = 0; i < batch.size(); ++i)
        std::swap(batch[i].group->outputs[batch[i].slot], outputs[i]);
    {
      std::lock_guard lock(mutex_);
      positions_ += batch.size();
      batches_ += 1;
      if (failure) failed_ += batch.size();
      queue_wait_us_sum_ += waited_us;
      forward_us_sum_ += forward_us;
      if (--running_ == 0)
        busy_us_ += std::chrono::duration<double, std::micro>(clock_.now() - busy_since_).count();
    }
    finish(batch, failure);
    batch.clear();
  }
}

// Counts the batch's requests off their groups and completes the groups that are whole.
// Completions run outside the lock: they wake callers or run user callbacks.
void InferenceService::finish(std::vector<Request>& batch,
                              const std::optional<std::string>& failure) {
  std::vector<std::shared_ptr<Group>> done;
  {
    std::lock_guard lock(mutex_);
    for (Request& r : batch) {
      if (failure && !r.group->failure) r.group->failure = failure;
      if (--r.group->remaining == 0) {
        if (r.group->caller_waits) --waiting_callers_;
        done.push_back(r.group);
      }
    }
  }
  for (const auto& g : done) {
    try {
      g->on_done(g->failure);
    } catch (...) {
      // A throwing user callback must not take the worker (and every other caller) down.
    }
  }
}

InferenceStats InferenceService::stats() const {
  std::lock_guard lock(mutex_);
  InferenceStats s;
  s.positions = positions_;
  s.batches = batches_;
  s.failed = failed_;
  if (batches_ > 0) {
    s.mean_batch_fill = static_cast<double>(positions_) / static_cast<double>(batches_);
    s.mean_fill_ratio = s.mean_batch_fill / config_.max_batch;
    s.mean_forward_us = forward_us_sum_ / static_cast<double>(batches_);
  }
  s.busy_seconds = busy_us_ * 1e-6;
  if (positions_ > 0) s.mean_queue_wait_us = queue_wait_us_sum_ / static_cast<double>(positions_);
  return s;
}

InferenceStats combine_stats(const std::vector<InferenceStats>& all, int max_batch) {
  InferenceStats s;
  double wait_sum = 0, forward_sum = 0;
  for (const InferenceStats& x : all) {
    s.positions += x.positions;
    s.batches += x.batches;
    s.failed += x.failed;
    s.busy_seconds += x.busy_seconds;
    wait_sum += x.mean_queue_wait_us * static_cast<double>(x.positions);
    forward_sum += x.mean_forward_us * static_cast<double>(x.batches);
  }
  if (s.batches > 0) {
    s.mean_batch_fill = static_cast<double>(s.positions) / static_cast<double>(s.batches);
    s.mean_fill_ratio = s.mean_batch_fill / std::max(1, max_batch);
    s.mean_forward_us = forward_sum / static_cast<double>(s.batches);
  }
  if (s.positions > 0) s.mean_queue_wait_us = wait_sum / static_cast<double>(s.positions);
  return s;
}

}  // namespace zh
