#include "engine/cli/engine_cli.h"

#include <CLI/CLI.hpp>

#include "engine/engine.h"

namespace zh::cli {

void add_engine_option_flag(CLI::App& cmd, std::vector<std::string>& sink) {
  cmd.add_option("-o,--option", sink, "engine option NAME=VALUE (repeatable; see below)");
  Options reference;
  Engine::declare_options(reference);
  cmd.footer("Engine options (-o NAME=VALUE; UCI setoption takes the same names):\n" +
             reference.help_text());
}

void apply_engine_options(Engine& engine, const std::vector<std::string>& pairs) {
  for (const auto& p : pairs) {
    const auto eq = p.find('=');
    if (eq == std::string::npos) throw OptionError("option '" + p + "' must be written NAME=VALUE");
    engine.set_option(p.substr(0, eq), p.substr(eq + 1));
  }
}

}  // namespace zh::cli
