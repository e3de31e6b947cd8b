#include "engine/util/clock.h"

namespace zh {

void CancelToken::cancel() {
  {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
  }
  cv_.notify_all();
}

bool CancelToken::cancelled() const {
  std::lock_guard lock(mutex_);
  return cancelled_;
}

bool CancelToken::wait_until(TimePoint deadline) const {
  std::unique_lock lock(mutex_);
  cv_.wait_until(lock, deadline, [this] { return cancelled_; });
  return !cancelled_;
}

bool SteadyClock::sleep_for(Millis d, const CancelToken& cancel) {
  return cancel.wait_until(now() + d);
}

bool SteadyClock::wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
                             TimePoint deadline, const std::function<bool()>& wake) {
  return cv.wait_until(lock, deadline, wake);
}

Clock& steady_clock() {
  static SteadyClock clock;
  return clock;
}

}  // namespace zh
