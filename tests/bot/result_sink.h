#pragma once
// The answers of a MoveEngine (ThinkResult), delivered on any thread, held for a test to wait on.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "bot/game/move_engine.h"

namespace zh::bot::test {

using namespace std::chrono_literals;

// Waits for and holds results delivered on any thread.
class ResultSink {
 public:
  std::function<void(const ThinkResult&)> callback() {
    // Notified under the lock: a waiter that returns and destroys the sink cannot do so while
    // the delivering thread is still inside notify_all.
    return [this](const ThinkResult& r) {
      std::lock_guard lock(mutex_);
      results_.push_back(r);
      cv_.notify_all();
    };
  }
  // The n-th result (0-based), waiting up to a generous bound for it.
  std::optional<ThinkResult> wait(std::size_t n, std::chrono::milliseconds timeout = 30s) {
    std::unique_lock lock(mutex_);
    if (!cv_.wait_for(lock, timeout, [&] { return results_.size() > n; })) return std::nullopt;
    return results_[n];
  }
  std::size_t count() {
    std::lock_guard lock(mutex_);
    return results_.size();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<ThinkResult> results_;
};

}  // namespace zh::bot::test
