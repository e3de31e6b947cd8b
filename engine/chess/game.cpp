#include "engine/chess/game.h"

#include "engine/chess/notation.h"

namespace zh {

int count_repetitions(const std::vector<std::uint64_t>& keys, int window) {
  const int last = int(keys.size()) - 1;
  int count = 0;
  // Same side to move: every second ply back, no further than the last irreversible move.
  for (int i = last - 2; i >= 0 && last - i <= window; i -= 2)
    if (keys[i] == keys[last]) ++count;
  return count;
}

Game::Game(const Position& start) : start_(start), current_(start), keys_{start.key()} {}

void Game::play(Move m) {
  if (!current_.is_legal(m))
    throw MoveError("move " + to_uci(m) + " is not legal in " + current_.fen());
  current_.do_move(m);
  moves_.push_back(m);
  keys_.push_back(current_.key());
}

void Game::play_uci(std::string_view uci) {
  Move m = parse_uci(current_, uci);
  current_.do_move(m);
  moves_.push_back(m);
  keys_.push_back(current_.key());
}

int Game::repetitions() const {
  return count_repetitions(keys_, current_.plies_since_irreversible());
}

GameOutcome Game::outcome() const {
  const bool no_moves = current_.count_legal_moves() == 0;
  if (no_moves && current_.in_check())
    return {current_.side_to_move() == kWhite ? GameResult::kBlackWins : GameResult::kWhiteWins,
            Termination::kCheckmate};
  if (no_moves) return {GameResult::kDraw, Termination::kStalemate};
  if (repetitions() >= 4) return {GameResult::kDraw, Termination::kFivefoldRepetition};
  return {};
}

}  // namespace zh
