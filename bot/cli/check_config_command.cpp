// `zhbot check-config`: validates the configuration and prints the effective values, with the
// token reported only as present or missing (never shown).
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>

#include "bot/cli/commands.h"
#include "bot/config/config_file.h"
#include "bot/config/load_config.h"
#include "bot/config/token.h"

namespace zh::cli {

void add_check_config_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("check-config",
                                 "validate the config file and print the effective configuration");
  auto path = std::make_shared<std::string>();
  auto defaults = std::make_shared<bool>(false);
  cmd->add_option("--config,-c", *path, "YAML config file (default: built-in defaults)");
  cmd->add_flag("--defaults", *defaults,
                "print every option with its default and help as a commented YAML file");
  cmd->callback([path, defaults] {
    const std::optional<std::string> file =
        path->empty() ? std::nullopt : std::optional<std::string>(*path);
    bot::LoadedConfig config = bot::load_config(*defaults ? std::nullopt : file);
    if (*defaults) {
      std::cout << "# zhbot configuration: every option with its default.\n"
                   "# The token is never read from this file: set LICHESS_BOT_TOKEN or "
                   "lichess.token_file.\n\n"
                << bot::render_config(config.options, true);
      return;
    }
    std::string problem;
    const bot::LoadedToken token =
        bot::try_load_token(std::getenv("LICHESS_BOT_TOKEN"), config.bot.token_file, problem);
    std::cout << "# effective configuration" << (file ? " from " + *file : " (defaults)") << "\n";
    if (token.token.empty())
      std::cout << "# token: MISSING - " << problem << "\n";
    else
      std::cout << "# token: <redacted> (from " << token.origin << ")\n";
    for (const auto& w : token.warnings) std::cout << "# warning: " << w << "\n";
    std::cout << bot::render_config(config.options, false);
  });
}

}  // namespace zh::cli
