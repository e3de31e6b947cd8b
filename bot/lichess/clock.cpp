#include "bot/lichess/clock.h"

#include <random>

namespace zh::bot {

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

Clock& steady_clock() {
  static SteadyClock clock;
  return clock;
}

RandomSource default_random_source() {
  auto engine = std::make_shared<std::mt19937_64>(std::random_device{}());
  auto mutex = std::make_shared<std::mutex>();
  return [engine, mutex] {
    std::lock_guard lock(*mutex);
    return std::uniform_real_distribution<double>(0.0, 1.0)(*engine);
  };
}

}  // namespace zh::bot
