// zhbot: a lichess BOT for crazyhouse with an in-process MCTS + neural-network engine.
#include <CLI/CLI.hpp>

#include "bot/cli/commands.h"
#include "engine/cli/commands.h"
#include "engine/cli/run_main.h"

int main(int argc, char** argv) {
  CLI::App app{"zhbot " ZH_VERSION " - crazyhouse engine and lichess bot"};
  app.set_version_flag("--version", "zhbot " ZH_VERSION);
  zh::cli::add_engine_commands(app);
  zh::cli::add_check_config_command(app);
  zh::cli::add_upgrade_account_command(app);
  zh::cli::add_run_command(app);
  zh::cli::add_healthcheck_command(app);
  zh::cli::add_status_command(app);
  return zh::cli::run_main(app, argc, argv);
}
