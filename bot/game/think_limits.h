#pragma once
// The limits of our search for a move in a lichess game.

#include "bot/config/bot_config.h"
#include "bot/lichess/events.h"
#include "engine/chess/types.h"
#include "engine/time/search_limits.h"

namespace zh::bot {

// Per move in untimed games (correspondence, unlimited).
inline constexpr std::int64_t kUntimedMoveMs = 10000;

// Our first moves sampled with the search temperature against humans when
// human_opening_temperature is on (paper: 4).
inline constexpr int kOpeningSampledMoves = 4;

// The server's clocks, less the POST round trip (`rtt_ms`, time the server charges us) on our
// side; a fixed time per move when the game is untimed. Against humans the time jitter, the
// minimum think time and (if configured) the opening sampling apply.
SearchLimits think_limits(const GameFull& full, const GameState& state, Color us, double rtt_ms,
                          bool opponent_is_bot, const BotConfig& config);

// Counts our moves in a row whose value says the game is lost; resigning is the caller's call.
class ResignWatch {
 public:
  explicit ResignWatch(const BotConfig& config) : config_(config) {}
  // Our search's value (and mate, negative: we are mated) at ply `ply`; true: resign now.
  bool should_resign(int ply, float value, std::optional<int> mate);

 private:
  const BotConfig& config_;
  int low_value_streak_ = 0;
};

// Counts our moves in a row whose value is level; says when to offer a draw with the move
// (offer_draws: after offer_draw_moves of them, from offer_draw_min_moves on, to bots unless
// offer_draws_to_humans). After an offer the count starts again, so a declined offer is not
// repeated with every move.
class DrawOfferWatch {
 public:
  explicit DrawOfferWatch(const BotConfig& config) : config_(config) {}
  // Our search's value (and mate, if one is proven) for the move of full move `full_move`.
  bool should_offer(int full_move, float value, std::optional<int> mate, bool opponent_is_bot);

 private:
  const BotConfig& config_;
  int level_streak_ = 0;
};

}  // namespace zh::bot
