#pragma once
// A clock tests move by hand. Sleeping advances it at once and records the delay, so backoff
// and rate-limit pauses are checked exactly and a 60 s pause costs no real time.

#include <atomic>
#include <mutex>
#include <vector>

#include "bot/lichess/clock.h"

namespace zh::bot::test {

class FakeClock final : public Clock {
 public:
  TimePoint now() const override { return TimePoint(Millis(offset_ms_.load())); }
  bool sleep_for(Millis d, const CancelToken& cancel) override {
    {
      std::lock_guard lock(mutex_);
      sleeps_.push_back(d);
    }
    advance(d);
    return !cancel.cancelled();
  }
  void advance(Millis d) { offset_ms_ += d.count(); }
  std::vector<Millis> sleeps() const {
    std::lock_guard lock(mutex_);
    return sleeps_;
  }

 private:
  // Starts far from zero so "now - a default TimePoint" is never mistaken for a short time.
  std::atomic<long long> offset_ms_{1'000'000'000};
  mutable std::mutex mutex_;
  std::vector<Millis> sleeps_;
};

}  // namespace zh::bot::test
