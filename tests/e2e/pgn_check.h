#pragma once
// Reads a PGN back with the project's own SAN parser: the tags, the moves replayed from the
// start position (every SAN must be legal), and the result token.

#include <map>
#include <string>
#include <vector>

#include "engine/chess/game.h"

namespace zh::e2e {

struct ParsedPgn {
  std::map<std::string, std::string> tags;
  std::vector<std::string> san;
  Game game;           // the moves replayed
  std::string result;  // the movetext's final token: 1-0, 0-1, 1/2-1/2 or *
};

// Throws zh::MoveError (an illegal or unreadable SAN) or std::runtime_error (bad structure).
ParsedPgn parse_pgn(const std::string& text);

// The moves of `uci` (space-separated lichess UCI, castling in either form) replayed.
Game replay_uci(const std::string& uci);

}  // namespace zh::e2e
