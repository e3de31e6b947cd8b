#pragma once
// The one main() body of both zhbot builds (full and engine-only): parse, run the chosen
// subcommand, turn an escaping exception into a message and exit status 1.

namespace CLI {
class App;
}

namespace zh::tools {

int run_main(CLI::App& app, int argc, char** argv);

}  // namespace zh::tools
