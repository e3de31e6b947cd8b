#pragma once
// The PGN of one game: an evaluation and clock note for each of our moves, and the file
// written when the game ends (into pgn_dir; none when it is empty).

#include <spdlog/spdlog.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bot/config/bot_config.h"
#include "bot/game/move_engine.h"
#include "bot/lichess/events.h"
#include "bot/pgn/pgn_writer.h"

namespace zh::bot {

// "Stockfish level 3" for lichess AI opponents, the user name otherwise.
std::string player_display_name(const GamePlayer& player);

class GameRecord {
 public:
  GameRecord(std::string game_id, const BotConfig& config, std::shared_ptr<spdlog::logger> log);

  // Our move at `ply`, searched as `result`; `clock_after_ms` is our clock after it (timed
  // games only).
  void note_move(int ply, Color us, const ThinkResult& result,
                 std::optional<std::int64_t> clock_after_ms);
  // Writes the PGN; returns its path (none when pgn_dir is empty or writing failed, logged).
  std::optional<std::filesystem::path> save(const GameFull& full,
                                            const std::vector<std::string>& uci_moves,
                                            const std::string& status, const std::string& winner);

 private:
  std::string game_id_;
  const BotConfig& config_;
  std::shared_ptr<spdlog::logger> log_;
  std::vector<PgnMoveNote> notes_;
};

}  // namespace zh::bot
