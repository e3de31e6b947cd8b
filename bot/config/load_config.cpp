#include "bot/config/load_config.h"

#include "bot/config/config_file.h"
#include "engine/engine.h"

namespace zh::bot {

void declare_all_options(Options& options) {
  BotConfig::declare(options);
  Engine::declare_options(options);  // search, time, evaluator: one file configures both
}

LoadedConfig load_config(const std::optional<std::string>& path) {
  LoadedConfig c;
  declare_all_options(c.options);
  if (path) load_config_file(*path, c.options);
  try {
    c.bot = BotConfig::from(c.options);
  } catch (const OptionError& e) {
    throw ConfigError((path ? *path + ": " : std::string()) + e.what());
  }
  return c;
}

}  // namespace zh::bot
