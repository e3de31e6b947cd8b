#pragma once
// Time as the bot's network code sees it. Streams, backoff and rate limits read time and
// sleep only through Clock so tests can drive timeouts with a fake clock instead of waiting.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

namespace zh::bot {

using Millis = std::chrono::milliseconds;
using TimePoint = std::chrono::steady_clock::time_point;

// A cancellation flag that also wakes sleepers; shared by everything one shutdown must stop.
class CancelToken {
 public:
  void cancel();
  bool cancelled() const;
  // Waits until `deadline` or cancellation; returns false when cancelled.
  bool wait_until(TimePoint deadline) const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable cv_;
  bool cancelled_ = false;
};

class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimePoint now() const = 0;
  // Sleeps for `d` unless `cancel` fires first; returns false when cancelled.
  virtual bool sleep_for(Millis d, const CancelToken& cancel) = 0;
};

class SteadyClock final : public Clock {
 public:
  TimePoint now() const override { return std::chrono::steady_clock::now(); }
  bool sleep_for(Millis d, const CancelToken& cancel) override;
};

// A process-wide real clock for production code paths.
Clock& steady_clock();

// Uniform numbers in [0, 1) for jitter; injectable so tests are deterministic.
using RandomSource = std::function<double()>;
RandomSource default_random_source();

}  // namespace zh::bot
