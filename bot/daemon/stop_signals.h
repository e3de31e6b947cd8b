#pragma once
// SIGTERM and SIGINT, caught whichever thread the kernel hands them to. The process-wide
// handler only writes the signal's number into a pipe, so a thread that never blocked them (a
// math library's pool that exists before main, say) runs it instead of dying of the default
// action. The daemon's own threads block both (their calls see no EINTR); one watcher thread
// leaves them unblocked, reads the pipe and acts.

#include <atomic>
#include <functional>
#include <thread>

namespace zh::bot {

class StopSignals {
 public:
  // Installs the handler and blocks both signals in the calling thread, whose later threads
  // inherit the mask. Call early, before the program starts threads of its own; once is enough.
  static void install();

  // Reads the signals on its own thread: the first calls `drain`; a second one (a moment after:
  // a supervisor that signals the process and then its group sends one request twice) calls
  // `leave_now`; a third ends the process. Signals that came before are read at once.
  StopSignals(std::function<void()> drain, std::function<void()> leave_now);
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  void loop();

  std::function<void()> drain_, leave_now_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace zh::bot
