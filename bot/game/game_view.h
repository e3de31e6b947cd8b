#pragma once
// A game as the status page shows it, built by its session after each change (on the session's
// thread) and published to the StatusBoard.

#include <optional>
#include <string>
#include <vector>

#include "bot/game/move_engine.h"
#include "bot/lichess/events.h"
#include "bot/status/status_model.h"
#include "engine/chess/game.h"

namespace zh::bot {

struct GameViewInput {
  const GameFull* full = nullptr;
  const GameState* state = nullptr;  // the last one
  Color us = kWhite;
  const Game* game = nullptr;  // null while the server's move list cannot be followed
  bool thinking = false;
  std::optional<EvalPoint> eval;
  std::int64_t nodes = 0, nps = 0;
  const std::vector<EvalPoint>* eval_history = nullptr;
  std::string url;
  std::int64_t now_unix_ms = 0;
};

GameView make_game_view(const GameViewInput& in);

// Our evaluation in a searched move's result (none for a book move: it has no evaluation).
std::optional<EvalPoint> eval_point(const ThinkResult& result, int ply);

}  // namespace zh::bot
