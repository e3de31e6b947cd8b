#pragma once
// One thread that makes the challenge desk's HTTP calls (accept, decline, create, cancel, the
// online-bot list) in the order they were asked for, so the event stream never waits on a
// retried request. Jobs queued after stop() are dropped; stop() waits for the running one.

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace zh::bot {

class DeskWorker {
 public:
  DeskWorker();
  ~DeskWorker();
  DeskWorker(const DeskWorker&) = delete;
  DeskWorker& operator=(const DeskWorker&) = delete;

  void post(std::function<void()> job);
  // Jobs queued or running; 0 once all have finished.
  int backlog() const;
  void stop();

 private:
  void run();

  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  int running_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace zh::bot
