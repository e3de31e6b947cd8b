#include "bot/game/server_board.h"

#include <algorithm>

#include "engine/chess/notation.h"
#include "engine/util/strings.h"

namespace zh::bot {

ServerBoard::ServerBoard(std::string initial_fen, std::shared_ptr<spdlog::logger> log)
    : initial_fen_(std::move(initial_fen)), log_(std::move(log)) {}

bool ServerBoard::update(const std::string& moves_text) {
  const std::vector<std::string> moves = split_words(moves_text);
  // Usually the new list extends the old one by a move or two: play only those (replaying
  // the whole game costs a legality check per ply). Anything else rebuilds from the start.
  const bool extends = valid_ && moves.size() >= moves_.size() &&
                       std::equal(moves_.begin(), moves_.end(), moves.begin());
  try {
    Game game = extends ? game_
                        : Game(initial_fen_ == "startpos" || initial_fen_.empty()
                                   ? Position()
                                   : Position::from_fen(initial_fen_));
    for (std::size_t i = extends ? moves_.size() : 0; i < moves.size(); ++i) {
      try {
        game.play_uci(moves[i]);
      } catch (const MoveError& e) {
        log_->error(
            "server move {} '{}' is rejected by our rules ({}); waiting for the next "
            "state to resynchronise",
            i + 1, moves[i], e.what());
        valid_ = false;
        return false;
      }
    }
    game_ = std::move(game);
  } catch (const std::exception& e) {
    log_->error("cannot set up the game from '{}': {}", initial_fen_, e.what());
    valid_ = false;
    return false;
  }
  moves_ = moves;
  moves_text_ = moves_text;
  valid_ = true;
  return true;
}

}  // namespace zh::bot
