#include "bot/lichess/rate_limit.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace zh::bot {

Millis rate_limit_pause(std::string_view body, std::optional<long> retry_after_s) {
  // Bounds keep a hostile or buggy value from parking the bot for days or from being zero.
  constexpr long kMaxSeconds = 24 * 3600;
  const auto json = nlohmann::json::parse(body, nullptr, false);
  if (!json.is_discarded() && json.is_object()) {
    auto rl = json.find("ratelimit");
    if (rl != json.end() && rl->is_object()) {
      auto seconds = rl->find("seconds");
      if (seconds != rl->end() && seconds->is_number())
        return Millis(1000 * std::clamp(seconds->get<long>(), 1L, kMaxSeconds));
    }
  }
  if (retry_after_s && *retry_after_s > 0)
    return Millis(1000 * std::min(*retry_after_s, kMaxSeconds));
  return kDefaultRateLimitPause;
}

Millis RateLimitGate::remaining(std::string_view endpoint) const {
  std::lock_guard lock(mutex_);
  auto it = blocked_until_.find(endpoint);
  if (it == blocked_until_.end()) return Millis(0);
  const auto left = std::chrono::duration_cast<Millis>(it->second - clock_.now());
  return std::max(left, Millis(0));
}

void RateLimitGate::block(std::string_view endpoint, Millis pause) {
  std::lock_guard lock(mutex_);
  const TimePoint until = clock_.now() + pause;
  auto it = blocked_until_.find(endpoint);
  if (it == blocked_until_.end())
    blocked_until_.emplace(std::string(endpoint), until);
  else
    it->second = std::max(it->second, until);
}

}  // namespace zh::bot
