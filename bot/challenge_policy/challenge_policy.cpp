#include "bot/challenge_policy/challenge_policy.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "engine/util/strings.h"

namespace zh::bot {

namespace {

constexpr const char* kSpeeds[] = {"ultraBullet", "bullet",    "blitz",
                                   "rapid",       "classical", "correspondence"};

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

bool contains_user(const std::vector<std::string>& list, const ChallengeUser& user) {
  const std::string id = lower(user.id), name = lower(user.name);
  return std::any_of(list.begin(), list.end(), [&](const std::string& entry) {
    const std::string e = lower(entry);
    return e == id || e == name;
  });
}

ChallengeDecision decline(DeclineReason reason, std::string why) {
  return {ChallengeDecision::Kind::kDecline, reason, std::move(why)};
}

// tooFast / tooSlow when every accepted speed lies on one side, timeControl otherwise.
DeclineReason speed_reason(const std::string& speed, const std::vector<std::string>& accepted) {
  const int rank = speed_rank(speed);
  bool slower = false, faster = false;
  for (const auto& s : accepted) {
    const int r = speed_rank(s);
    if (r > rank) slower = true;
    if (r >= 0 && r < rank) faster = true;
  }
  if (rank >= 0 && slower && !faster) return DeclineReason::kTooFast;
  if (rank >= 0 && faster && !slower) return DeclineReason::kTooSlow;
  return DeclineReason::kTimeControl;
}

}  // namespace

int speed_rank(const std::string& speed) {
  for (int i = 0; i < int(std::size(kSpeeds)); ++i)
    if (speed == kSpeeds[i]) return i;
  return -1;
}

ChallengeDecision decide_challenge(const Challenge& c, const ChallengePolicyOptions& o,
                                   const DaemonLoad& load) {
  using Kind = ChallengeDecision::Kind;
  if (!load.my_id.empty() && lower(c.challenger.id) == lower(load.my_id))
    return {Kind::kIgnore, DeclineReason::kGeneric, "our own challenge"};
  if (!c.status.empty() && c.status != "created")
    return {Kind::kIgnore, DeclineReason::kGeneric, "challenge is " + c.status};

  if (contains_user(o.block_list, c.challenger)) return decline(DeclineReason::kGeneric, "blocked");
  if (!o.allow_list.empty() && !contains_user(o.allow_list, c.challenger))
    return decline(DeclineReason::kGeneric, "not on the allow list");

  if (c.challenger.is_bot() && !o.accept_bots) return decline(DeclineReason::kNoBot, "bot");
  if (!c.challenger.is_bot() && o.only_bots) return decline(DeclineReason::kOnlyBot, "human");

  // The engine plays crazyhouse alone: any other variant would be accepted and never played,
  // whatever the config says (check-config refuses other keys in `variants`).
  if (c.variant != kPlayedVariant || !contains(o.variants, c.variant))
    return decline(DeclineReason::kVariant, "variant " + c.variant);

  const TimeControl& tc = c.time_control;
  if (c.compat_bot.has_value() && !*c.compat_bot) {
    // The server will not let a bot play it (UltraBullet is the usual case).
    return decline(c.speed == "ultraBullet" ? DeclineReason::kTooFast : DeclineReason::kGeneric,
                   "not playable with the Bot API");
  }
  // Every real-time speed is faster: "tooSlow" asks for a game with a clock.
  if (tc.type != "clock" || c.speed == "correspondence")
    return decline(DeclineReason::kTooSlow, "correspondence or unlimited (" + tc.type + ")");
  if (!contains(o.speeds, c.speed))
    return decline(speed_reason(c.speed, o.speeds), "speed " + c.speed);
  if (tc.type == "clock") {
    if (tc.limit_s < o.min_base_s) return decline(DeclineReason::kTooFast, "base too short");
    if (tc.limit_s > o.max_base_s) return decline(DeclineReason::kTooSlow, "base too long");
    if (tc.increment_s < o.min_increment_s)
      return decline(DeclineReason::kTooFast, "increment too small");
    if (tc.increment_s > o.max_increment_s)
      return decline(DeclineReason::kTooSlow, "increment too large");
    if (c.challenger.is_bot() && o.bot_bullet_requires_increment && c.speed == "bullet" &&
        tc.increment_s == 0)
      return decline(DeclineReason::kTimeControl, "bullet without increment from a bot");
  }

  // "casual" asks for a casual game instead, "rated" for a rated one.
  if (c.rated && !o.accept_rated) return decline(DeclineReason::kCasual, "rated");
  if (!c.rated && !o.accept_casual) return decline(DeclineReason::kRated, "casual");

  if (c.challenger.rating) {
    const int r = *c.challenger.rating;
    if (r < o.min_rating || r > o.max_rating)
      return decline(DeclineReason::kGeneric, "rating " + std::to_string(r));
    if (o.rating_difference > 0 && load.my_rating &&
        std::abs(r - *load.my_rating) > o.rating_difference)
      return decline(DeclineReason::kGeneric, "rating " + std::to_string(r) + " more than " +
                                                  std::to_string(o.rating_difference) +
                                                  " from ours (" + std::to_string(*load.my_rating) +
                                                  ")");
  }

  // Only what will pass later says `later`: a refusal (draining, a failing device) comes after
  // every lasting reason, so a challenger who could never be accepted is not invited back.
  if (!load.refusal.empty()) return decline(DeclineReason::kLater, load.refusal);
  if (c.challenger.is_bot() && o.max_recent_bot_challenges > 0 &&
      load.recent_from_challenger > o.max_recent_bot_challenges)
    return decline(DeclineReason::kLater, std::to_string(load.recent_from_challenger) +
                                              " challenges from this bot within " +
                                              std::to_string(o.recent_bot_challenge_window_s) +
                                              " s");
  if (load.games_with_challenger >= o.max_games_per_opponent)
    return decline(DeclineReason::kLater, "already playing this opponent");
  if (c.challenger.is_bot() && load.bot_games_last_24h >= o.max_bot_games_per_day)
    return decline(DeclineReason::kLater, "bot game cap for the day reached");
  if (load.active_games >= o.max_concurrent_games)
    return {Kind::kWait, DeclineReason::kLater, "all game slots busy"};
  if (c.challenger.is_bot() &&
      load.active_bot_games >= o.max_concurrent_games - o.games_reserved_for_humans)
    return {Kind::kWait, DeclineReason::kLater, "the free slots are reserved for humans"};
  return {Kind::kAccept, DeclineReason::kGeneric, "accepted"};
}

}  // namespace zh::bot
