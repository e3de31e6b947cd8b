#include "engine/cli/run_main.h"

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

namespace zh::cli {

int run_main(CLI::App& app, int argc, char** argv) {
  app.require_subcommand(1);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const CommandExit& e) {
    if (*e.what()) std::cerr << "zhbot: error: " << e.what() << "\n";
    return e.code();
  } catch (const std::exception& e) {
    std::cerr << "zhbot: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace zh::cli
