#include "bot/daemon/systemd_notify.h"

#include <spdlog/spdlog.h>

#ifdef ZH_HAVE_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

namespace zh::bot {

SystemdNotifier::SystemdNotifier(Clock& clock) : clock_(clock) {
#ifdef ZH_HAVE_SYSTEMD
  std::uint64_t usec = 0;
  // > 0 only when WATCHDOG_USEC is set (and WATCHDOG_PID, if set, names this process).
  if (sd_watchdog_enabled(0, &usec) > 0) {
    watchdog_interval_ = std::chrono::microseconds(usec);
    spdlog::info("systemd watchdog: {} ms, pinged every {} ms", usec / 1000, usec / 2000);
  }
#endif
}

void SystemdNotifier::ready() { send("READY=1"); }

void SystemdNotifier::status(const std::string& text) { send("STATUS=" + text); }

void SystemdNotifier::stopping() { send("STOPPING=1"); }

void SystemdNotifier::watchdog_tick() {
  if (!watchdog_enabled()) return;
  const TimePoint now = clock_.now();
  if (last_ping_ && now - *last_ping_ < watchdog_interval_ / 2) return;
  last_ping_ = now;
  send("WATCHDOG=1");
}

void SystemdNotifier::send(const std::string& state) {
#ifdef ZH_HAVE_SYSTEMD
  // < 0: the socket named by NOTIFY_SOCKET is gone; 0: not under systemd. Neither stops the bot.
  if (const int r = sd_notify(0, state.c_str()); r < 0)
    spdlog::debug("sd_notify({}) failed: {}", state, r);
#else
  (void)state;
#endif
}

}  // namespace zh::bot
