// The systemd notify protocol as the real `zhbot run` speaks it, without systemd: the test
// binds the datagram socket systemd would bind, hands it over in NOTIFY_SOCKET (and a watchdog
// in WATCHDOG_USEC) and reads what arrives. READY=1 once the account is checked and the event
// stream is connected, STATUS= lines, WATCHDOG=1 keep-alives (only with WATCHDOG_USEC),
// STOPPING=1 on SIGTERM. The keep-alives' schedule (half the interval) is unit-tested on a fake
// clock (tests/bot/daemon/systemd_notify_test.cpp); here only events are waited for.
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>

#include "tests/e2e/e2e_fixture.h"

namespace zh::e2e {
namespace {

using Clock = std::chrono::steady_clock;

// An abstract-namespace unix datagram socket (no path-length or cleanup worries) whose
// datagrams are collected, one entry per line, with their arrival times.
class NotifySocket {
 public:
  struct Line {
    std::string text;
    Clock::time_point at;
  };

  NotifySocket() {
    static std::atomic<int> serial{0};
    name_ = "zhbot-e2e-notify-" + std::to_string(::getpid()) + "-" + std::to_string(serial++);
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) throw std::runtime_error("socket(AF_UNIX) failed");
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path + 1, name_.data(), name_.size());  // sun_path[0] = 0: abstract
    const auto len = socklen_t(offsetof(sockaddr_un, sun_path) + 1 + name_.size());
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0)
      throw std::runtime_error("bind of the notify socket failed");
    reader_ = std::thread([this] { read_loop(); });
  }
  ~NotifySocket() {
    stop_ = true;
    reader_.join();
    ::close(fd_);
  }

  std::string address() const { return "@" + name_; }  // NOTIFY_SOCKET's abstract form

  std::vector<Line> lines() {
    std::lock_guard lock(mutex_);
    return lines_;
  }
  int count(const std::string& text) {
    int n = 0;
    for (const auto& l : lines()) n += l.text == text;
    return n;
  }
  bool wait_for(const std::string& text, std::chrono::milliseconds timeout, int times = 1) {
    return eventually([&] { return count(text) >= times; }, timeout, 20ms);
  }
  // Sends a line of our own and waits until it was read: everything sent before it (by a
  // process that has exited, say) has then been read too.
  bool read_all(std::chrono::milliseconds timeout) {
    const std::string marker = "TEST-MARK-" + std::to_string(marks_++);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path + 1, name_.data(), name_.size());
    const auto len = socklen_t(offsetof(sockaddr_un, sun_path) + 1 + name_.size());
    const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    const bool sent = fd >= 0 && ::sendto(fd, marker.data(), marker.size(), 0,
                                          reinterpret_cast<sockaddr*>(&addr), len) >= 0;
    if (fd >= 0) ::close(fd);
    return sent && wait_for(marker, timeout);
  }

 private:
  void read_loop() {
    char buffer[4096];
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) continue;
      const auto at = Clock::now();
      std::lock_guard lock(mutex_);
      std::string_view rest(buffer, std::size_t(n));
      while (!rest.empty()) {
        const auto end = rest.find('\n');
        lines_.push_back({std::string(rest.substr(0, end)), at});
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
      }
    }
  }

  std::string name_;
  int marks_ = 0;
  int fd_ = -1;
  std::atomic<bool> stop_{false};
  std::thread reader_;
  std::mutex mutex_;
  std::vector<Line> lines_;
};

using E2eSystemd = E2eTest;

TEST_F(E2eSystemd, ReadyAfterTheStreamConnectsThenWatchdogAtHalfTheIntervalThenStopping) {
  start_emulator();
  NotifySocket notify;
  BotProcess& bot = start_bot(settings(), kToken,
                              {{"NOTIFY_SOCKET", notify.address()}, {"WATCHDOG_USEC", "1000000"}});
  ASSERT_TRUE(notify.wait_for("READY=1", 60s)) << "no READY=1 from the daemon";
  // READY means playable: by then the account was checked and the event stream was open.
  const std::string log_at_ready = bot.log();
  EXPECT_NE(log_at_ready.find("logged in"), std::string::npos) << log_at_ready;
  EXPECT_NE(log_at_ready.find("event stream connected"), std::string::npos) << log_at_ready;
  EXPECT_EQ(notify.count("READY=1"), 1);
  // STATUS= is its own datagram, sent just after READY=1: wait until it was read as well.
  const bool status_seen = eventually(
      [&] {
        for (const auto& l : notify.lines())
          if (l.text.rfind("STATUS=playing as ", 0) == 0 && l.text.find("nodes/s") != l.text.npos)
            return true;
        return false;
      },
      10s, 20ms);
  EXPECT_TRUE(status_seen) << "no STATUS= line with games and nodes/s";

  // WatchdogSec=1 s: the running daemon keeps feeding the watchdog (about every 0.5 s).
  const int before = notify.count("WATCHDOG=1");
  EXPECT_TRUE(notify.wait_for("WATCHDOG=1", 60s, before + 4)) << "the watchdog is not fed";

  bot.process().signal(SIGTERM);
  EXPECT_TRUE(notify.wait_for("STOPPING=1", 10s)) << "no STOPPING=1 on SIGTERM";
  const auto status = bot.process().wait_exit(20s);
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(status->exited && status->code == 0) << status->describe();
  ASSERT_TRUE(notify.read_all(10s));
  for (const auto& l : notify.lines())
    EXPECT_EQ(l.text.find(kToken), std::string::npos) << "the token reached the notify socket";
}

TEST_F(E2eSystemd, NoWatchdogPingsWithoutWatchdogUsec) {
  start_emulator();
  NotifySocket notify;
  BotProcess& bot = start_bot(settings(), kToken, {{"NOTIFY_SOCKET", notify.address()}});
  ASSERT_TRUE(notify.wait_for("READY=1", 60s));
  // The daemon's whole life, from start through READY and draining to its exit: its main loop
  // turned all along, and a tick with a watchdog would have pinged at its first turn.
  bot.process().signal(SIGTERM);
  ASSERT_TRUE(notify.wait_for("STOPPING=1", 10s));
  const auto status = bot.process().wait_exit(20s);
  ASSERT_TRUE(status.has_value());
  ASSERT_TRUE(notify.read_all(10s));
  EXPECT_EQ(notify.count("WATCHDOG=1"), 0);
}

}  // namespace
}  // namespace zh::e2e
