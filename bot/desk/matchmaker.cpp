#include "bot/desk/matchmaker.h"

#include <algorithm>
#include <cstdlib>

#include "engine/util/strings.h"

namespace zh::bot {

std::vector<OnlineBot> seek_candidates(const std::vector<OnlineBot>& online,
                                       const MatchmakingOptions& options, const SeekContext& ctx) {
  const int mine = ctx.my_rating.value_or(kDefaultRating);
  std::vector<OnlineBot> out;
  for (const OnlineBot& b : online) {
    const std::string id = lower(b.id);
    if (id == ctx.my_id || b.crazyhouse_games <= 0 || !b.crazyhouse_rating) continue;
    if (std::abs(*b.crazyhouse_rating - mine) > options.rating_difference) continue;
    const bool blocked = std::any_of(options.block_list.begin(), options.block_list.end(),
                                     [&](const std::string& name) { return lower(name) == id; });
    if (blocked || (ctx.excluded && ctx.excluded(id))) continue;
    out.push_back(b);
  }
  return out;
}

const OnlineBot& pick_opponent(const std::vector<OnlineBot>& candidates, double random01) {
  const auto i = std::min(candidates.size() - 1, std::size_t(random01 * double(candidates.size())));
  return candidates[i];
}

const SeekClock& pick_clock(const std::vector<SeekClock>& clocks, double random01) {
  const auto i = std::min(clocks.size() - 1, std::size_t(random01 * double(clocks.size())));
  return clocks[i];
}

std::chrono::seconds decline_memory(const std::string& reason_key) {
  if (lower(reason_key) == "later") return std::chrono::hours(1);
  return std::chrono::hours(24);
}

}  // namespace zh::bot
