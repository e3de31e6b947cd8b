#pragma once
// The systemd service protocol (Type=notify): READY=1 once the bot can play, STATUS= lines,
// WATCHDOG=1 keep-alives at half of WatchdogSec=, STOPPING=1 when draining. Built on
// libsystemd's sd_notify when the build found it; otherwise (and whenever the process was not
// started by systemd, i.e. NOTIFY_SOCKET is unset) every call does nothing.

#include <chrono>
#include <optional>
#include <string>

#include "engine/util/clock.h"

namespace zh::bot {

class SystemdNotifier {
 public:
  explicit SystemdNotifier(Clock& clock = steady_clock());

  void ready();
  void status(const std::string& text);
  void stopping();
  // Sends WATCHDOG=1 when half of the watchdog interval has passed since the last one; call it
  // often (the daemon's main loop does, every 200 ms). Nothing when no watchdog is set.
  void watchdog_tick();

  bool watchdog_enabled() const { return watchdog_interval_.count() > 0; }
  std::chrono::microseconds watchdog_interval() const { return watchdog_interval_; }

 private:
  void send(const std::string& state);

  Clock& clock_;
  std::chrono::microseconds watchdog_interval_{0};
  std::optional<TimePoint> last_ping_;
};

}  // namespace zh::bot
