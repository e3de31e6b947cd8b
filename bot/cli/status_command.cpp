// `zhbot status`: what the running daemon is doing, from its /status.json, in the terminal.
// Exit codes (bot/status/status_report.h): 0 healthy, 1 unhealthy, 2 no answer, 3 an answer
// that is not zhbot's status.
#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "bot/cli/commands.h"
#include "bot/config/load_config.h"
#include "bot/status/status_report.h"

namespace zh::cli {

namespace {

struct StatusArgs {
  std::string config_path;
  std::string url;
  int timeout_ms = 3000;
  bool json = false;
};

}  // namespace

void add_status_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "status",
      "show the local daemon's games, queue and health (exit 0 healthy, 1 unhealthy, "
      "2 unreachable, 3 not a zhbot status)");
  auto args = std::make_shared<StatusArgs>();
  cmd->add_option("--config,-c", args->config_path,
                  "the daemon's YAML config (its operations.metrics_port is asked)");
  cmd->add_option("--url", args->url,
                  "ask this address instead, e.g. http://127.0.0.1:8080 (an SSH tunnel's end)");
  cmd->add_option("--timeout-ms", args->timeout_ms, "give up after this long")
      ->check(CLI::Range(1, 60000));
  cmd->add_flag("--json", args->json, "print the status JSON as the daemon sent it");
  cmd->callback([args] {
    std::string url = args->url;
    while (!url.empty() && url.back() == '/') url.pop_back();
    if (url.empty()) {
      const std::optional<std::string> file =
          args->config_path.empty() ? std::nullopt : std::optional(args->config_path);
      const int port = int(bot::load_config(file).bot.metrics_port);
      if (port == 0) {
        std::cerr << "zhbot status: operations.metrics_port is 0 (status page off); set it in "
                     "the config or pass --url\n";
        throw CLI::RuntimeError(bot::kStatusUnreachable);
      }
      url = "http://127.0.0.1:" + std::to_string(port);
    }
    const bot::StatusFetch fetched =
        bot::fetch_status(url, std::chrono::milliseconds(args->timeout_ms));
    if (fetched.outcome == bot::kStatusUnreachable || fetched.outcome == bot::kStatusBadAnswer) {
      std::cerr << "zhbot status: " << fetched.error << "\n";
      throw CLI::RuntimeError(fetched.outcome);
    }
    std::cout << (args->json ? fetched.status.dump(2) + "\n" : bot::format_status(fetched.status));
    if (fetched.outcome != bot::kStatusHealthy) throw CLI::RuntimeError(fetched.outcome);
  });
}

}  // namespace zh::cli
