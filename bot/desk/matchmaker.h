#pragma once
// The choices of matchmaking, as pure functions: whom to challenge among the online bots, with
// which clock, and how long to leave a bot alone after it declined.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bot/config/matchmaking_options.h"
#include "bot/lichess/events.h"

namespace zh::bot {

// Without a crazyhouse rating of our own, the window is centred here (lichess's start rating).
inline constexpr int kDefaultRating = 1500;

struct SeekContext {
  std::string my_id;  // lower case
  std::optional<int> my_rating;
  // True for bots not to challenge now (declined recently, playing us already, ...).
  std::function<bool(const std::string& user_id)> excluded;
  // challenge.block_list: ids or names, case-insensitive; never challenged either.
  std::vector<std::string> challenge_block_list;
};

// The bots worth a challenge: online bots that have played crazyhouse, rated within
// rating_difference of us and within [min_rating, max_rating], on neither block list, not
// excluded, and not ourselves; with a rating preference, only those rated above (below) us
// when there are any.
std::vector<OnlineBot> seek_candidates(const std::vector<OnlineBot>& online,
                                       const MatchmakingOptions& options, const SeekContext& ctx);

// One of `candidates` (not empty), chosen by `random01` in [0, 1).
const OnlineBot& pick_opponent(const std::vector<OnlineBot>& candidates, double random01);
const SeekClock& pick_clock(const std::vector<SeekClock>& clocks, double random01);
// Whether a challenge in `mode` is rated (kRandom: rated when random01 >= 0.5).
bool pick_rated(SeekMode mode, double random01);

// How long a bot that declined with lichess's `reason_key` (lower case, as lichess sends it)
// is not asked again: a day for reasons that will not change soon (variant, time control, no
// bots, rated/casual, generic), an hour for `later` (it was busy).
std::chrono::seconds decline_memory(const std::string& reason_key);

// Left alone after it did not answer within seek_timeout_s.
inline constexpr std::chrono::seconds kUnansweredMemory = std::chrono::hours(1);

}  // namespace zh::bot
