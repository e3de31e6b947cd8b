// `zhbot healthcheck`: exit 0 when the running daemon's /healthz answers 200 (its event stream to
// lichess is connected and its evaluator's device works), 1 otherwise. Made for container
// HEALTHCHECKs and monitoring scripts: it reads operations.metrics_port from the same config file
// the daemon runs with.
#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "bot/cli/commands.h"
#include "bot/config/load_config.h"
#include "bot/metrics/health_probe.h"

namespace zh::cli {

namespace {

struct HealthcheckArgs {
  std::string config_path;
  int port = 0;
  int timeout_ms = 3000;
};

}  // namespace

void add_healthcheck_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "healthcheck",
      "exit 0 if the local daemon's /healthz answers 200 (event stream connected, evaluator "
      "healthy)");
  auto args = std::make_shared<HealthcheckArgs>();
  cmd->add_option("--config,-c", args->config_path,
                  "the daemon's YAML config (its operations.metrics_port is probed)");
  cmd->add_option("--port", args->port, "probe this port instead of the config's")
      ->check(CLI::Range(1, 65535));
  cmd->add_option("--timeout-ms", args->timeout_ms, "give up after this long")
      ->check(CLI::Range(1, 60000));
  cmd->callback([args] {
    int port = args->port;
    if (port == 0) {
      const std::optional<std::string> file =
          args->config_path.empty() ? std::nullopt : std::optional(args->config_path);
      port = int(bot::load_config(file).bot.metrics_port);
    }
    if (port == 0) {
      std::cerr << "zhbot healthcheck: operations.metrics_port is 0 (health endpoint off); "
                   "set it in the config or pass --port\n";
      throw CLI::RuntimeError(1);
    }
    const bot::HealthProbeResult result =
        bot::probe_health(port, std::chrono::milliseconds(args->timeout_ms));
    (result.healthy ? std::cout : std::cerr) << "zhbot healthcheck: " << result.detail << "\n";
    if (!result.healthy) throw CLI::RuntimeError(1);
  });
}

}  // namespace zh::cli
