#pragma once
// What a game session needs from an engine. The production implementation drives zh::Engine
// (engine_adapter.h); tests use a scripted one. Keeping the session on this narrow interface
// lets its lichess behaviour be tested without a search.
//
// Moves cross this boundary as zh::Move and the game as zh::Game (the session's own, extended
// by one move per ply); they become UCI text only on the wire.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "engine/chess/game.h"
#include "engine/chess/move.h"
#include "engine/time/search_limits.h"
#include "engine/util/clock.h"

namespace zh::bot {

struct ThinkResult {
  Move move;                // null: no move (see error)
  float value = 0;          // for the side that moved, in [-1, 1]
  int cp = 0;               // same, centipawns
  std::optional<int> mate;  // moves to mate for the side that moved (negative: getting mated)
  std::int64_t nodes = 0;
  std::int64_t nps = 0;
  std::int64_t time_ms = 0;    // search time
  std::int64_t search_us = 0;  // the same, finer (0: unknown); for the overhead measurement
  // When the result left the engine's thread (session clock; unset: unknown). Only for the
  // overhead breakdown in the debug log.
  TimePoint handed_over{};
  std::string best_san;  // for !eval
  // A move from the opening book, not a search: where it came from ("book", "explorer"), and
  // for the log how heavy it was there. Empty after a search. A book result has no value.
  std::string book;
  std::string book_detail;
  std::string error;
};

class MoveEngine {
 public:
  virtual ~MoveEngine() = default;
  // A new game (forget the tree and the previous move's value).
  virtual void new_game() = 0;
  // Searches the game's current position and calls `done` exactly once, on any thread.
  virtual void think(const Game& game, const SearchLimits& limits,
                     std::function<void(const ThinkResult&)> done) = 0;
  // Thinks on the opponent's time after our move; ends at the next think() or stop().
  virtual void ponder(const Game& game) = 0;
  virtual void stop() = 0;
  virtual bool pondering() const = 0;
  virtual std::string description() const = 0;
};

}  // namespace zh::bot
