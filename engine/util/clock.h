#pragma once
// Time as zhbot's code sees it, engine and bot alike. Everything that reads the time, sleeps or
// waits with a deadline goes through a Clock, so tests drive time limits with a fake clock
// (tests/support/fake_clock.h) instead of waiting, and nothing depends on the machine's load.
// A test holds the code to it (tests/tools/test_one_clock.py): this file and clock.cpp are the
// only ones in engine/ and bot/ that call a std::chrono clock's now(), and a sleep or a timed
// wait on a condition variable is left only where real work is paced (a child process polled,
// the simulated device's latency, the prover's share of a core): the test lists them.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>

namespace zh {

using Millis = std::chrono::milliseconds;
using TimePoint = std::chrono::steady_clock::time_point;
using WallTime = std::chrono::system_clock::time_point;

// A cancellation flag that also wakes sleepers; shared by everything one shutdown must stop.
class CancelToken {
 public:
  void cancel();
  bool cancelled() const;
  // Waits until `deadline` on the real steady clock, or cancellation; false when cancelled.
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
  // The calendar time, for what must outlive the process (the state file's bot games and
  // declines); a test clock moves it with now().
  virtual WallTime wall_now() const = 0;
  // Sleeps for `d` unless `cancel` fires first; returns false when cancelled.
  virtual bool sleep_for(Millis d, const CancelToken& cancel) = 0;
  // Blocks on `cv` (its mutex held by `lock`) until `wake()` is true or this clock reaches
  // `deadline`; returns wake(). `wake` is called with the lock held, like a condition
  // variable's predicate (a test clock may also call it from its own thread, under the lock).
  virtual bool wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                          TimePoint deadline, const std::function<bool()>& wake) = 0;
};

class SteadyClock final : public Clock {
 public:
  TimePoint now() const override { return std::chrono::steady_clock::now(); }
  WallTime wall_now() const override { return std::chrono::system_clock::now(); }
  bool sleep_for(Millis d, const CancelToken& cancel) override;
  bool wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                  TimePoint deadline, const std::function<bool()>& wake) override;
};

// The process-wide real clock, for production code paths.
Clock& steady_clock();

// Whole seconds since the Unix epoch.
inline std::int64_t unix_seconds(WallTime t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

// Whole milliseconds from `from` to `to`.
inline std::int64_t ms_between(TimePoint from, TimePoint to) {
  return std::chrono::duration_cast<Millis>(to - from).count();
}

}  // namespace zh
