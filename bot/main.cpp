// zhbot: a lichess BOT for crazyhouse with an in-process MCTS + neural-network engine.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "bot/cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"zhbot " ZH_VERSION " - crazyhouse engine and lichess bot"};
  app.set_version_flag("--version", "zhbot " ZH_VERSION);
  app.require_subcommand(1);
  zh::cli::add_perft_command(app);
  zh::cli::add_nnbench_command(app);
  zh::cli::add_uci_command(app);
  zh::cli::add_analyse_command(app);
  zh::cli::add_bench_command(app);
  zh::cli::add_check_config_command(app);
  zh::cli::add_upgrade_account_command(app);
  zh::cli::add_run_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "zhbot: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
