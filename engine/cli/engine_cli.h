#pragma once
// Shared by the engine subcommands (uci, analyse, bench): `-o NAME=VALUE` engine options and
// the option reference shown under --help.

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace zh {
class Engine;
}

namespace zh::cli {

// Adds a repeatable `-o,--option NAME=VALUE` flag and the option reference as help footer.
void add_engine_option_flag(CLI::App& cmd, std::vector<std::string>& sink);
// Applies NAME=VALUE pairs; throws OptionError naming the bad one.
void apply_engine_options(Engine& engine, const std::vector<std::string>& pairs);

}  // namespace zh::cli
