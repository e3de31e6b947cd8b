#pragma once
// The game as the server last described it. The server's `moves` list is the whole truth: the
// board follows it, extended by the new moves when the list grew (the usual case: one or two
// moves) and rebuilt from the start otherwise (a takeback, a resynchronisation).

#include <spdlog/spdlog.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/chess/game.h"

namespace zh::bot {

class ServerBoard {
 public:
  ServerBoard(std::string initial_fen, std::shared_ptr<spdlog::logger> log);

  // Follows the server's move list. False (and invalid until the next good list) when a move
  // is refused by our rules or the start position cannot be read; the reason is logged.
  bool update(const std::string& moves_text);
  void set_initial_fen(std::string initial_fen) { initial_fen_ = std::move(initial_fen); }

  bool valid() const { return valid_; }
  const Game& game() const { return game_; }
  const std::string& moves_text() const { return moves_text_; }
  const std::vector<std::string>& moves() const { return moves_; }  // UCI, as the server wrote
  int plies() const { return int(moves_.size()); }

 private:
  std::string initial_fen_;  // "startpos" or a FEN
  std::shared_ptr<spdlog::logger> log_;
  std::string moves_text_;
  std::vector<std::string> moves_;
  Game game_;
  bool valid_ = false;
};

}  // namespace zh::bot
