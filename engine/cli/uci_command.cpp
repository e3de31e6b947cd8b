// `zhbot uci`: the engine as a UCI program on stdin/stdout (cutechess-cli, lichess-bot, GUIs).
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "engine/cli/commands.h"
#include "engine/cli/engine_cli.h"
#include "engine/engine.h"
#include "engine/uci/uci.h"

namespace zh::cli {

void add_uci_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("uci", "speak UCI on stdin/stdout (crazyhouse only)");
  auto options = std::make_shared<std::vector<std::string>>();
  add_engine_option_flag(*cmd, *options);
  cmd->callback([options] {
    std::ios::sync_with_stdio(false);
    Engine engine;
    apply_engine_options(engine, *options);
    UciLoop loop(engine, std::cout, "zhbot " ZH_VERSION);
    loop.run(std::cin);
  });
}

}  // namespace zh::cli
