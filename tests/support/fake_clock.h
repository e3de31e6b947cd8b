#pragma once
// A clock that tests move by hand, for the engine and the bot alike.
//
// - sleep_for() advances it at once and records the delay, so backoff and rate-limit pauses are
//   checked exactly and a 60 s pause costs no real time;
// - wait_until() parks the caller until it is woken or the test advances the clock past the
//   deadline, and wait_parked() lets the test wait until the code under test has settled in
//   such a wait: a time limit is then exercised by advancing the clock, never by sleeping, and
//   "nothing happened yet" is asserted at a moment where the code had every chance to act.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "engine/util/clock.h"

namespace zh::test {

class FakeClock final : public Clock {
 public:
  TimePoint now() const override {
    std::lock_guard lock(mutex_);
    return now_;
  }
  // Starts at kWallStart and moves with now().
  WallTime wall_now() const override {
    std::lock_guard lock(mutex_);
    return kWallStart + std::chrono::duration_cast<WallTime::duration>(now_ - kStart);
  }
  static constexpr TimePoint kStart{Millis(1'000'000'000)};
  static constexpr WallTime kWallStart{std::chrono::seconds(1'800'000'000)};  // 2027-01-15

  bool sleep_for(Millis d, const CancelToken& cancel) override {
    {
      std::lock_guard lock(mutex_);
      sleeps_.push_back(d);
    }
    advance(d);
    return !cancel.cancelled();
  }

  bool wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                  TimePoint deadline, const std::function<bool()>& wake) override {
    Waiter w{&cv, lock.mutex(), &wake, deadline};
    while (!wake() && now() < deadline) {
      add(&w);
      cv.wait(lock);
      remove(&w, lock);
    }
    return wake();
  }

  // Moves the clock on and wakes every thread waiting on it.
  void advance(Millis d) {
    std::vector<Waiter*> waiters;
    {
      std::lock_guard lock(mutex_);
      now_ += d;
      waiters = waiters_;
      ++visiting_;
    }
    for (Waiter* w : waiters) {
      std::lock_guard lock(*w->mutex);
      w->cv->notify_all();
    }
    leave();
  }

  // Waits (real time, up to `timeout`) until at least `n` threads wait on this clock and none of
  // them has a reason to wake (its predicate is false, its deadline ahead), or until `or_until`
  // (if given) is true. Returns whether one of them happened.
  bool wait_parked(std::size_t n = 1, const std::function<bool()>& or_until = {},
                   std::chrono::seconds timeout = std::chrono::seconds(30)) {
    const auto give_up = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      if (parked() >= n || (or_until && or_until())) return true;
      std::unique_lock lock(mutex_);
      if (std::chrono::steady_clock::now() >= give_up) return false;
      changed_.wait_for(lock, std::chrono::milliseconds(2));
    }
  }

  // The earliest deadline among the threads waiting on this clock.
  std::optional<TimePoint> next_deadline() const {
    std::lock_guard lock(mutex_);
    std::optional<TimePoint> next;
    for (const Waiter* w : waiters_)
      if (!next || w->deadline < *next) next = w->deadline;
    return next;
  }

  // Once a thread is parked: advances the clock to the earliest deadline (at least 1 ms).
  bool advance_to_next_deadline() {
    if (!wait_parked()) return false;
    const auto next = next_deadline();
    if (!next) return false;
    advance(std::max(Millis(1), std::chrono::duration_cast<Millis>(*next - now())));
    return true;
  }

  std::vector<Millis> sleeps() const {
    std::lock_guard lock(mutex_);
    return sleeps_;
  }

 private:
  struct Waiter {
    std::condition_variable* cv;
    std::mutex* mutex;
    const std::function<bool()>* wake;
    TimePoint deadline;
  };

  void add(Waiter* w) {
    {
      std::lock_guard lock(mutex_);
      waiters_.push_back(w);
    }
    changed_.notify_all();
  }

  // Called with the waiter's lock held; gives it up while advance() or parked() may still be
  // using the waiter, so it outlives their visit.
  void remove(Waiter* w, std::unique_lock<std::mutex>& waiter_lock) {
    waiter_lock.unlock();
    {
      std::unique_lock lock(mutex_);
      waiters_.erase(std::find(waiters_.begin(), waiters_.end(), w));
      changed_.wait(lock, [this] { return visiting_ == 0; });
    }
    changed_.notify_all();
    waiter_lock.lock();
  }

  void leave() {
    {
      std::lock_guard lock(mutex_);
      --visiting_;
    }
    changed_.notify_all();
  }

  bool registered(const Waiter* w) const {
    std::lock_guard lock(mutex_);
    return std::find(waiters_.begin(), waiters_.end(), w) != waiters_.end();
  }

  std::size_t parked() {
    std::vector<Waiter*> waiters;
    {
      std::lock_guard lock(mutex_);
      waiters = waiters_;
      ++visiting_;
    }
    std::size_t count = 0;
    for (Waiter* w : waiters) {
      std::lock_guard lock(*w->mutex);
      if (registered(w) && !(*w->wake)() && now() < w->deadline) ++count;
    }
    leave();
    return count;
  }

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  // Starts far from zero so "now - a default TimePoint" is never mistaken for a short time.
  TimePoint now_{kStart};
  std::vector<Waiter*> waiters_;
  int visiting_ = 0;  // advance() and parked() calls using waiters outside mutex_
  std::vector<Millis> sleeps_;
};

}  // namespace zh::test
