#pragma once
// The queue between the World (which pushes NDJSON lines) and one open HTTP stream (which
// writes them). A channel ends cleanly (`finish`: the queued lines, then the end of the
// response) or is severed (`sever`: the connection is dropped at once, as when a newer stream
// replaces it or the server restarts).

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>

namespace zh::emulator {

class LineChannel {
 public:
  enum class Next { kLine, kIdle, kFinished, kSevered };

  void push(std::string line);
  void finish();
  void sever();
  bool open() const;
  // Waits up to `wait` for the next line.
  Next next(std::string& line, std::chrono::milliseconds wait);
  // Waits up to `wait` for the channel to be severed or finished (used while stalled).
  bool wait_closed(std::chrono::milliseconds wait);

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::string> lines_;
  bool finished_ = false;
  bool severed_ = false;
};

}  // namespace zh::emulator
