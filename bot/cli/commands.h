#pragma once
// Each subcommand of the zhbot executable registers itself on the CLI11 app.

namespace CLI {
class App;
}

namespace zh::cli {

void add_perft_command(CLI::App& app);

}  // namespace zh::cli
