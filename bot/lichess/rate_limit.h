#pragma once
// Per-endpoint pause after HTTP 429. Lichess asks clients to wait a minute, or the number of
// seconds its JSON body names (`ratelimit.seconds`, e.g. the daily bot-vs-bot cap); hammering
// a limited endpoint only extends the ban.

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "engine/util/clock.h"

namespace zh::bot {

inline constexpr Millis kDefaultRateLimitPause{60000};

// How long to pause after a 429 with this body and Retry-After header: `ratelimit.seconds`
// from a JSON body, else Retry-After, else one minute. HTML bodies are fine (default applies).
Millis rate_limit_pause(std::string_view body, std::optional<long> retry_after_s);

class RateLimitGate {
 public:
  explicit RateLimitGate(Clock& clock) : clock_(clock) {}

  // Time left before `endpoint` may be called again; zero when it may be called now.
  Millis remaining(std::string_view endpoint) const;
  void block(std::string_view endpoint, Millis pause);

 private:
  Clock& clock_;
  mutable std::mutex mutex_;
  std::map<std::string, TimePoint, std::less<>> blocked_until_;
};

}  // namespace zh::bot
