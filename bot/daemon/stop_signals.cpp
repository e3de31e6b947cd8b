#include "bot/daemon/stop_signals.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <mutex>
#include <stdexcept>

#include "engine/util/clock.h"

namespace zh::bot {

namespace {

// The pipe the handler writes to: [0] read by the watcher, [1] written by the handler.
int g_pipe[2] = {-1, -1};

sigset_t stop_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

// Async-signal-safe: one write(2), errno kept for the interrupted code.
void write_stop_signal_to_pipe(int sig) {
  const int saved = errno;
  const unsigned char byte = static_cast<unsigned char>(sig);
  [[maybe_unused]] const ssize_t n = ::write(g_pipe[1], &byte, 1);
  errno = saved;
}

}  // namespace

void StopSignals::install() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
      throw std::runtime_error("cannot create the stop-signal pipe");
    struct sigaction action {};
    action.sa_handler = write_stop_signal_to_pipe;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
  });
  const sigset_t set = stop_set();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

StopSignals::StopSignals(std::function<void()> drain, std::function<void()> leave_now)
    : drain_(std::move(drain)), leave_now_(std::move(leave_now)) {
  install();
  thread_ = std::thread([this] { loop(); });
}

StopSignals::~StopSignals() {
  done_ = true;
  thread_.join();
}

void StopSignals::loop() {
  // This thread takes the signals no other thread would run the handler for.
  const sigset_t set = stop_set();
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  int count = 0;
  std::chrono::steady_clock::time_point first;
  while (!done_) {
    pollfd fd{g_pipe[0], POLLIN, 0};
    if (::poll(&fd, 1, 200) <= 0) continue;
    unsigned char sig = 0;
    while (::read(g_pipe[0], &sig, 1) == 1) {
      if (count == 1 && zh::steady_clock().now() - first < std::chrono::seconds(1))
        continue;  // the same request, once more
      if (++count == 1) first = zh::steady_clock().now();
      if (count == 1) {
        spdlog::info("{} received", sig == SIGINT ? "SIGINT" : "SIGTERM");
        drain_();
      } else if (count == 2) {
        spdlog::warn("second signal: leaving now");
        leave_now_();
      } else {
        _exit(0);
      }
    }
  }
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

}  // namespace zh::bot
