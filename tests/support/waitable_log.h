#pragma once
// A list that one thread appends to and another waits on: what a test fake records when the
// code under test calls it on a thread of its own.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace zh::test {

template <class T>
class WaitableLog {
 public:
  void add(T item) {
    // Notified under the lock: a waiter that returns and destroys the log cannot do so while
    // the adding thread is still inside notify_all.
    std::lock_guard lock(mutex_);
    items_.push_back(std::move(item));
    cv_.notify_all();
  }
  // The n-th item (0-based), waiting up to `timeout` for it; nothing if it did not come.
  std::optional<T> wait(std::size_t n, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    if (!cv_.wait_for(lock, timeout, [&] { return items_.size() > n; })) return std::nullopt;
    return items_[n];
  }
  std::size_t size() {
    std::lock_guard lock(mutex_);
    return items_.size();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<T> items_;
};

}  // namespace zh::test
