// zhbot-healthcheck: `zhbot healthcheck` as a program of its own, for container HEALTHCHECKs.
// It links the bot's config loader and the /healthz client but not LibTorch, so a probe every
// 30 s starts in milliseconds instead of mapping LibTorch (several GB of CUDA libraries in the
// CUDA image), and it still answers where zhbot itself cannot start (no GPU driver).
//   zhbot-healthcheck [--config FILE] [--port N] [--timeout-ms MS]   (exit 0 healthy, 1 not)
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "bot/cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"zhbot-healthcheck - exit 0 if the local zhbot daemon's /healthz answers 200"};
  zh::cli::add_healthcheck_command(app);
  // The same options as `zhbot healthcheck`: run that subcommand with this program's arguments.
  std::vector<std::string> args;  // CLI11 takes them last first
  for (int i = argc - 1; i >= 1; --i) args.emplace_back(argv[i]);
  args.emplace_back("healthcheck");
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "zhbot-healthcheck: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
