#pragma once
// One entry point for commands that need the configuration: declares every option, applies
// the YAML file (if any) and validates the bot's part.

#include <optional>
#include <string>

#include "bot/config/bot_config.h"
#include "engine/options.h"

namespace zh::bot {

// Every option the zhbot daemon reads from its YAML file.
void declare_all_options(Options& options);

struct LoadedConfig {
  Options options;
  BotConfig bot;
};

// Throws ConfigError with the file, key, value and what is allowed.
LoadedConfig load_config(const std::optional<std::string>& path);

}  // namespace zh::bot
