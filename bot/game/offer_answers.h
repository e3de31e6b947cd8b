#pragma once
// Answers the opponent's draw offers and takeback requests, each offer exactly once (the
// answered mark clears when the server stops showing the offer). A draw is accepted only when
// the config allows it, the game is long enough and our last evaluation is level; takebacks up
// to the configured number per game.

#include <spdlog/spdlog.h>

#include <memory>
#include <optional>
#include <string>

#include "bot/config/bot_config.h"
#include "bot/lichess/events.h"
#include "bot/lichess/lichess_client.h"
#include "engine/chess/types.h"

namespace zh::bot {

struct OurEvaluation {
  float value = 0;  // for us, in [-1, 1]
  bool mate = false;
};

class OfferAnswers {
 public:
  OfferAnswers(std::string game_id, const BotConfig& config, LichessClient& client,
               std::shared_ptr<spdlog::logger> log);

  // A new server state; `full_move` is the current move number, `eval` our last evaluation.
  void on_state(const GameState& state, Color us, int full_move,
                const std::optional<OurEvaluation>& eval);

 private:
  std::string game_id_;
  const BotConfig& config_;
  LichessClient& client_;
  std::shared_ptr<spdlog::logger> log_;
  bool draw_answered_ = false;
  bool takeback_answered_ = false;
  int takebacks_given_ = 0;
};

}  // namespace zh::bot
