#include "bot/desk/matchmaker.h"

#include <algorithm>
#include <cstdlib>

#include "engine/util/strings.h"

namespace zh::bot {

namespace {

bool listed(const std::vector<std::string>& list, const OnlineBot& b) {
  const std::string id = lower(b.id), name = lower(b.username);
  return std::any_of(list.begin(), list.end(), [&](const std::string& entry) {
    const std::string e = lower(entry);
    return e == id || e == name;
  });
}

}  // namespace

std::vector<OnlineBot> seek_candidates(const std::vector<OnlineBot>& online,
                                       const MatchmakingOptions& options, const SeekContext& ctx) {
  const int mine = ctx.my_rating.value_or(kDefaultRating);
  std::vector<OnlineBot> out;
  for (const OnlineBot& b : online) {
    const std::string id = lower(b.id);
    if (id == ctx.my_id || b.crazyhouse_games <= 0 || !b.crazyhouse_rating) continue;
    const int rating = *b.crazyhouse_rating;
    if (std::abs(rating - mine) > options.rating_difference) continue;
    if (rating < options.min_rating || rating > options.max_rating) continue;
    if (listed(options.block_list, b) || listed(ctx.challenge_block_list, b)) continue;
    if (ctx.excluded && ctx.excluded(id)) continue;
    out.push_back(b);
  }
  if (options.preference == RatingPreference::kNone) return out;
  std::vector<OnlineBot> preferred;
  for (const OnlineBot& b : out)
    if (options.preference == RatingPreference::kHigher ? *b.crazyhouse_rating > mine
                                                        : *b.crazyhouse_rating < mine)
      preferred.push_back(b);
  return preferred.empty() ? out : preferred;
}

const OnlineBot& pick_opponent(const std::vector<OnlineBot>& candidates, double random01) {
  const auto i = std::min(candidates.size() - 1, std::size_t(random01 * double(candidates.size())));
  return candidates[i];
}

const SeekClock& pick_clock(const std::vector<SeekClock>& clocks, double random01) {
  const auto i = std::min(clocks.size() - 1, std::size_t(random01 * double(clocks.size())));
  return clocks[i];
}

bool pick_rated(SeekMode mode, double random01) {
  return mode == SeekMode::kRated || (mode == SeekMode::kRandom && random01 >= 0.5);
}

std::chrono::seconds decline_memory(const std::string& reason_key) {
  if (lower(reason_key) == "later") return std::chrono::hours(1);
  return std::chrono::hours(24);
}

}  // namespace zh::bot
