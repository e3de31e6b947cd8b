#pragma once
// The bot's own options (lichess connection, challenge policy, game behaviour, chat,
// operations), declared once in the project's typed option system; BotConfig is the typed,
// validated view the daemon uses. Engine options (search, time, evaluator) are declared by the
// engine and live in the same Options object and the same YAML file.

#include <cstdint>
#include <string>
#include <vector>

#include "bot/challenge_policy/challenge_policy.h"
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
  // lichess
  std::string base_url;
  std::string token_file;
  std::int64_t request_timeout_ms = 0;
  std::int64_t stream_idle_timeout_s = 0;
  // challenge
  ChallengePolicyOptions challenge;
  // game
  std::int64_t abort_time_s = 0;
  std::int64_t human_min_think_ms = 0;
  bool human_opening_temperature = false;
  PonderMode ponder = PonderMode::kOn;
  bool ponder_single_game_only = true;
  bool accept_draws = false;
  double draw_value_threshold = 0;
  std::int64_t draw_min_moves = 0;
  std::int64_t takebacks_accepted = 0;
  bool resign = false;
  double resign_value = 0;
  std::int64_t resign_moves = 0;
  bool claim_victory = true;
  std::string pgn_dir;
  // chat
  ChatTemplates chat;
  bool chat_commands = true;
  std::int64_t chat_min_interval_ms = 0;
  // operations
  std::int64_t metrics_port = 0;
  std::int64_t shutdown_grace_s = 0;
  std::string log_level;
  std::string log_format;

  static void declare(Options& options);
  // Reads the declared options; throws OptionError (naming the key, the value and what is
  // allowed) for list entries the scalar declarations cannot check, e.g. an unknown speed.
  static BotConfig from(const Options& options);
};

// Splits a comma-separated list option ("bullet, blitz") into trimmed, non-empty items.
std::vector<std::string> split_list(const std::string& text);

}  // namespace zh::bot
