// zhbot, engine-only build (-DZH_BUILD_BOT=OFF): the engine commands without the lichess bot,
// for machines that have LibTorch and a compiler but none of the bot's libraries.
#include <CLI/CLI.hpp>

#include "engine/cli/commands.h"
#include "engine/cli/run_main.h"

int main(int argc, char** argv) {
  CLI::App app{"zhbot " ZH_VERSION " (engine only) - crazyhouse engine"};
  app.set_version_flag("--version", "zhbot " ZH_VERSION " (engine only)");
  zh::cli::add_engine_commands(app);
  return zh::cli::run_main(app, argc, argv);
}
