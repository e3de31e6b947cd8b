#pragma once
// The exit codes of `zhbot run`, chosen so a supervisor can act on them (README "Operations"):
// restarting helps after a network failure, never after a wrong configuration or token. The
// two failure codes are the BSD sysexits values operators already know.

namespace zh::bot {

enum ExitCode : int {
  kExitOk = 0,            // a clean drain or an operator's stop
  kExitFailure = 1,       // an unexpected error while running: worth a restart
  kExitUnavailable = 69,  // EX_UNAVAILABLE: lichess unreachable at start: restart with backoff
  kExitConfig = 78,       // EX_CONFIG: config, token or account wrong: a restart cannot help
};

}  // namespace zh::bot
