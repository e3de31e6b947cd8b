#pragma once
// A game: a start position plus the moves played, with repetition tracking and the game end
// as lichess rules it for crazyhouse (mate and stalemate count drops; no 50-move rule, no
// insufficient material; fivefold repetition is a draw, threefold only claimable).

#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/chess/move.h"
#include "engine/chess/position.h"

namespace zh {

enum class GameResult { kOngoing, kWhiteWins, kBlackWins, kDraw };
enum class Termination { kNone, kCheckmate, kStalemate, kFivefoldRepetition };

struct GameOutcome {
  GameResult result = GameResult::kOngoing;
  Termination termination = Termination::kNone;
};

class Game {
 public:
  explicit Game(const Position& start = Position());

  const Position& start() const { return start_; }
  const Position& position() const { return current_; }
  const std::vector<Move>& moves() const { return moves_; }

  // Plays a legal move (checked; throws MoveError when it is not legal).
  void play(Move m);
  // Plays UCI text (both castling forms accepted); throws MoveError.
  void play_uci(std::string_view uci);

  // How many times the current position occurred before (0 = first time); pockets,
  // promoted marks, castling, e.p. and side to move all count (the zobrist key covers them).
  int repetitions() const;
  bool threefold_claimable() const { return repetitions() >= 2; }
  GameOutcome outcome() const;

  // Keys of every position from the start through the current one.
  const std::vector<std::uint64_t>& keys() const { return keys_; }

 private:
  Position start_;
  Position current_;
  std::vector<Move> moves_;
  std::vector<std::uint64_t> keys_;
};

// Counts earlier occurrences of `keys.back()` among the last `window` plies (same side to move).
int count_repetitions(const std::vector<std::uint64_t>& keys, int window);

}  // namespace zh
