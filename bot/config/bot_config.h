#pragma once
// The bot's own options (lichess connection, challenge policy, matchmaking, game behaviour,
// chat, operations, book), declared once in the project's typed option system; BotConfig is the
// typed, validated view the daemon uses. Engine options (search, time, evaluator) are declared by
// the engine and live in the same Options object and the same YAML file.

#include <cstdint>
#include <string>
#include <vector>

#include "bot/config/book_config.h"
#include "bot/config/challenge_options.h"
#include "bot/config/matchmaking_options.h"
#include "engine/options.h"

namespace zh::bot {

enum class PonderMode { kOff, kOn, kHumans, kBots };

struct ChatTemplates {
  std::string greeting;
  std::string goodbye;
  std::string greeting_spectators;
  std::string goodbye_spectators;
};

struct BotConfig {
  // Filled from the options declared in bot_config.cpp, where every default lives.
  // lichess
  std::string base_url;
  std::string token_file;
  std::int64_t request_timeout_ms;
  std::int64_t stream_idle_timeout_s;
  // challenge
  ChallengePolicyOptions challenge;
  // matchmaking
  MatchmakingOptions matchmaking;
  // game
  std::int64_t abort_time_s;
  std::int64_t human_min_think_ms;
  bool human_opening_temperature;
  PonderMode ponder;
  bool ponder_single_game_only;
  bool accept_draws;
  double draw_value_threshold;
  std::int64_t draw_min_moves;
  bool offer_draws;
  double offer_draw_value;
  std::int64_t offer_draw_moves;
  std::int64_t offer_draw_min_moves;
  bool offer_draws_to_humans;
  std::int64_t takebacks_accepted;
  bool resign;
  double resign_value;
  std::int64_t resign_moves;
  bool claim_victory;
  std::string pgn_dir;
  // chat
  ChatTemplates chat;
  bool chat_commands;
  std::int64_t chat_min_interval_ms;
  // operations
  std::int64_t metrics_port;
  std::int64_t shutdown_grace_s;
  std::string state_dir;  // empty: systemd's $STATE_DIRECTORY, else "state"
  std::string log_level;
  std::string log_format;
  std::string log_file;
  std::int64_t log_file_max_mb;
  std::int64_t log_file_count;
  // book (bot/config/book_config.cpp)
  BookConfig book;

  static void declare(Options& options);
  // Reads the declared options; throws OptionError (naming the key, the value and what is
  // allowed) for list entries and option pairs the single declarations cannot check, e.g. an
  // unknown speed or min_rating above max_rating.
  static BotConfig from(const Options& options);
  // Every option at its declared default.
  static BotConfig defaults();
};

}  // namespace zh::bot
