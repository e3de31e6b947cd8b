// The watchdog schedule of SystemdNotifier on a fake clock: WATCHDOG=1 at once, then whenever
// half of WATCHDOG_USEC has passed, and never without a watchdog. The datagrams go to a socket
// of the test's own, where they are queued before sd_notify() returns: what has not arrived when
// the tick returned was not sent. (e2e_systemd_test runs the real daemon under the protocol.)
#include "bot/daemon/systemd_notify.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "tests/support/fake_clock.h"

namespace zh::bot {
namespace {

// An abstract unix datagram socket named in NOTIFY_SOCKET while it lives.
class NotifySink {
 public:
  NotifySink() {
    const std::string name = "zhbot-notify-test-" + std::to_string(::getpid());
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path + 1, name.data(), name.size());
    const auto len = socklen_t(offsetof(sockaddr_un, sun_path) + 1 + name.size());
    bound_ = fd_ >= 0 && ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), len) == 0;
    ::setenv("NOTIFY_SOCKET", ("@" + name).c_str(), 1);
  }
  ~NotifySink() {
    ::unsetenv("NOTIFY_SOCKET");
    ::unsetenv("WATCHDOG_USEC");
    if (fd_ >= 0) ::close(fd_);
  }
  bool bound() const { return bound_; }
  // Everything queued so far.
  std::vector<std::string> take() {
    std::vector<std::string> out;
    char buffer[4096];
    for (ssize_t n; (n = ::recv(fd_, buffer, sizeof buffer, 0)) > 0;)
      out.emplace_back(buffer, std::size_t(n));
    return out;
  }

 private:
  int fd_ = -1;
  bool bound_ = false;
};

TEST(SystemdNotifier, FeedsTheWatchdogAtHalfItsInterval) {
  NotifySink sink;
  ASSERT_TRUE(sink.bound());
  ::setenv("WATCHDOG_USEC", "1000000", 1);
  zh::test::FakeClock clock;
  SystemdNotifier notifier(clock);
  if (!notifier.watchdog_enabled()) GTEST_SKIP() << "built without libsystemd";
  EXPECT_EQ(notifier.watchdog_interval(), std::chrono::seconds(1));
  const std::vector<std::string> ping{"WATCHDOG=1"};
  notifier.watchdog_tick();
  EXPECT_EQ(sink.take(), ping);  // at once
  clock.advance(Millis(499));
  notifier.watchdog_tick();
  EXPECT_TRUE(sink.take().empty());  // not before half the interval
  clock.advance(Millis(1));
  notifier.watchdog_tick();
  notifier.watchdog_tick();
  EXPECT_EQ(sink.take(), ping);  // at 500 ms, once
  clock.advance(Millis(2000));   // a late tick pings at once, and counts from then
  notifier.watchdog_tick();
  EXPECT_EQ(sink.take(), ping);
  clock.advance(Millis(499));
  notifier.watchdog_tick();
  EXPECT_TRUE(sink.take().empty());
}

TEST(SystemdNotifier, NoWatchdogWithoutWatchdogUsec) {
  NotifySink sink;
  ASSERT_TRUE(sink.bound());
  zh::test::FakeClock clock;
  SystemdNotifier notifier(clock);
  EXPECT_FALSE(notifier.watchdog_enabled());
  for (int i = 0; i < 5; ++i) {
    notifier.watchdog_tick();
    clock.advance(Millis(1000));
  }
  notifier.ready();  // the socket works: the protocol's other messages arrive
  const std::vector<std::string> got = sink.take();
  if (got.empty()) GTEST_SKIP() << "built without libsystemd";
  EXPECT_EQ(got, std::vector<std::string>{"READY=1"});
}

}  // namespace
}  // namespace zh::bot
