#pragma once
// The real `zhbot run` as the end-to-end tests drive it: a generated YAML config pointing at
// the emulator, the token given only through LICHESS_BOT_TOKEN, stdout and stderr captured to
// a log file in the test's directory.

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/util/child_process.h"
#include "tests/e2e/harness_io.h"

namespace zh::e2e {

// The YAML sections and keys of config/zhbot.yaml (plus the engine's search, time and
// evaluator sections). Values are written as given (quote strings yourself where needed).
class BotSettings {
 public:
  // Quick games on a shared 2-core machine: material evaluator, one search thread, a small
  // tree per move, no pondering, chat kept (it is part of what runs on the wire).
  explicit BotSettings(const std::string& base_url);

  BotSettings& set(const std::string& section, const std::string& key, const std::string& value);
  // The value as a YAML double-quoted string (paths, URLs).
  BotSettings& set_quoted(const std::string& section, const std::string& key,
                          std::string_view value);
  // No mate searches and no solver: the search runs its full budget even when it sees a
  // mate, so a test can control how long a move or a game takes.
  BotSettings& without_mate_search();
  // The evaluator the shipped configuration plays with (the network in models/ where zhbot is
  // built with LibTorch), instead of the quick material evaluator.
  BotSettings& shipped_evaluator();
  std::string yaml() const;

 private:
  std::map<std::string, std::map<std::string, std::string>> values_;
};

// A loopback port free right now (the kernel's pick), for operations.metrics_port.
int free_loopback_port();

class BotProcess {
 public:
  // Writes <dir>/<name>.yaml and starts `zhbot run --config` on it; output to <dir>/<name>.log.
  // `extra_env` adds variables (e.g. systemd's NOTIFY_SOCKET); `env_unset` removes inherited
  // ones, OPENBLAS_NUM_THREADS (otherwise set to 1) among them.
  BotProcess(const std::filesystem::path& dir, const std::string& name, const BotSettings& settings,
             const std::string& token, const std::map<std::string, std::string>& extra_env = {},
             const std::vector<std::string>& env_unset = {});
  BotProcess(const BotProcess&) = delete;
  BotProcess& operator=(const BotProcess&) = delete;

  ChildProcess& process() { return *process_; }
  const std::filesystem::path& log_path() const { return log_; }
  std::string log() const { return read_text(log_); }
  // How often `needle` occurs in the log so far.
  int log_count(const std::string& needle) const;
  bool wait_log(const std::string& needle, std::chrono::milliseconds timeout, int times = 1);
  // SIGTERM (a drain of up to `drain`), then a second SIGTERM (leave at once), then SIGKILL.
  ExitStatus terminate(std::chrono::milliseconds drain);

 private:
  std::filesystem::path log_;
  std::unique_ptr<ChildProcess> process_;
};

}  // namespace zh::e2e
