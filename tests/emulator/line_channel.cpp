#include "tests/emulator/line_channel.h"

namespace zh::emulator {

void LineChannel::push(std::string line) {
  {
    std::lock_guard lock(mu_);
    if (finished_ || severed_) return;
    lines_.push_back(std::move(line));
  }
  cv_.notify_all();
}

void LineChannel::finish() {
  {
    std::lock_guard lock(mu_);
    finished_ = true;
  }
  cv_.notify_all();
}

void LineChannel::sever() {
  {
    std::lock_guard lock(mu_);
    severed_ = true;
  }
  cv_.notify_all();
}

bool LineChannel::open() const {
  std::lock_guard lock(mu_);
  return !finished_ && !severed_;
}

LineChannel::Next LineChannel::next(std::string& line, std::chrono::milliseconds wait) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, wait, [&] { return severed_ || finished_ || !lines_.empty(); });
  if (severed_) return Next::kSevered;
  if (!lines_.empty()) {
    line = std::move(lines_.front());
    lines_.pop_front();
    return Next::kLine;
  }
  return finished_ ? Next::kFinished : Next::kIdle;
}

bool LineChannel::wait_closed(std::chrono::milliseconds wait) {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, wait, [&] { return severed_ || finished_; });
}

}  // namespace zh::emulator
