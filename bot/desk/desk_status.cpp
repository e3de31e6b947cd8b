#include "bot/desk/desk_status.h"

#include <chrono>

namespace zh::bot {

std::string time_control_text(const TimeControl& tc) {
  if (tc.type == "clock") return std::to_string(tc.limit_s) + "+" + std::to_string(tc.increment_s);
  if (tc.type == "correspondence")
    return std::to_string(tc.days_per_turn) + (tc.days_per_turn == 1 ? " day" : " days");
  return tc.type.empty() ? "unlimited" : tc.type;
}

StatusPlayer challenger_view(const ChallengeUser& user) {
  return {user.name, user.title, user.rating};
}

std::vector<QueuedChallenge> queue_view(const std::vector<ChallengeQueue::Entry>& entries,
                                        TimePoint now, std::int64_t now_unix_ms) {
  std::vector<QueuedChallenge> out;
  for (const auto& e : entries) {
    const Challenge& c = e.challenge;
    const auto age = std::chrono::duration_cast<std::chrono::milliseconds>(now - e.arrived);
    out.push_back({c.id, challenger_view(c.challenger), c.speed, time_control_text(c.time_control),
                   c.rated, now_unix_ms - age.count()});
  }
  return out;
}

DeclinedChallenge declined_view(const Challenge& c, const std::string& reason,
                                const std::string& why) {
  DeclinedChallenge d;
  d.id = c.id;
  d.challenger = challenger_view(c.challenger);
  d.time_control = time_control_text(c.time_control);
  d.reason = reason;
  d.detail = why;
  return d;
}

}  // namespace zh::bot
