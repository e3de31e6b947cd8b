#pragma once
// The games of earlier runs, read back from the PGN files the daemon wrote (game.pgn_dir), so
// the status page's finished games and rating chart do not start empty after a restart.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "bot/status/status_model.h"

namespace zh::bot {

struct PgnHistory {
  std::vector<FinishedGame> finished;  // newest first
  std::vector<RatingPoint> ratings;    // our rating at the start of each rated game, oldest first
};

// Reads the tags of the newest `max_games` files *.pgn in `dir` (by modification time) and keeps
// the finished games `account` (its user name, any case) played; a file that cannot be read or
// is not such a game is skipped. The ratings
// are lichess's at the time of each game (the PGN holds no rating change).
PgnHistory read_pgn_history(const std::filesystem::path& dir, const std::string& account,
                            std::size_t max_games);

}  // namespace zh::bot
