#include "bot/game/think_limits.h"

#include <algorithm>
#include <cmath>

namespace zh::bot {

SearchLimits think_limits(const GameFull& full, const GameState& state, Color us, double rtt_ms,
                          bool opponent_is_bot, const BotConfig& config) {
  SearchLimits limits;
  if (full.clock_initial_ms) {
    const auto rtt = std::int64_t(std::llround(rtt_ms));
    limits.wtime = std::max<std::int64_t>(1, state.wtime_ms - (us == kWhite ? rtt : 0));
    limits.btime = std::max<std::int64_t>(1, state.btime_ms - (us == kBlack ? rtt : 0));
    limits.winc = state.winc_ms;
    limits.binc = state.binc_ms;
  } else {
    limits.movetime = kUntimedMoveMs;
  }
  limits.human_opponent = !opponent_is_bot;
  limits.min_think_ms = opponent_is_bot ? 0 : config.human_min_think_ms;
  limits.sampled_moves =
      !opponent_is_bot && config.human_opening_temperature ? kOpeningSampledMoves : 0;
  return limits;
}

bool ResignWatch::should_resign(int ply, float value, std::optional<int> mate) {
  if (!config_.resign || ply < 2) return false;
  const bool lost = value <= config_.resign_value || (mate && *mate < 0);
  low_value_streak_ = lost ? low_value_streak_ + 1 : 0;
  return low_value_streak_ >= config_.resign_moves;
}

bool DrawOfferWatch::should_offer(int full_move, float value, std::optional<int> mate,
                                  bool opponent_is_bot) {
  if (!config_.offer_draws || (!opponent_is_bot && !config_.offer_draws_to_humans)) return false;
  const bool level = !mate && std::abs(value) <= config_.offer_draw_value;
  level_streak_ = level ? level_streak_ + 1 : 0;
  if (level_streak_ < config_.offer_draw_moves || full_move < config_.offer_draw_min_moves)
    return false;
  level_streak_ = 0;
  return true;
}

}  // namespace zh::bot
