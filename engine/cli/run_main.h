#pragma once
// The one main() body of both zhbot builds (full and engine-only): parse, run the chosen
// subcommand, turn an escaping exception into a message and exit status 1 (or the status a
// CommandExit carries).

#include <stdexcept>
#include <string>

namespace CLI {
class App;
}

namespace zh::cli {

// Thrown by a command to end the process with a given exit code; `what()` (when not empty) is
// printed as the error. `zhbot run` uses the codes of bot/daemon/exit_codes.h.
class CommandExit : public std::runtime_error {
 public:
  CommandExit(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

int run_main(CLI::App& app, int argc, char** argv);

}  // namespace zh::cli
