// `zhbot run`: the lichess bot daemon.

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "bot/book/book_move_engine.h"
#include "bot/cli/commands.h"
#include "bot/config/config_file.h"
#include "bot/config/load_config.h"
#include "bot/config/token.h"
#include "bot/daemon/daemon.h"
#include "bot/daemon/exit_codes.h"
#include "bot/daemon/process_secrecy.h"
#include "bot/daemon/stop_signals.h"
#include "bot/game/engine_adapter.h"
#include "bot/logging/log_setup.h"
#include "engine/cli/run_main.h"
#include "engine/engine.h"
#include "engine/evaluator_loader.h"

namespace zh::cli {

namespace {

// One evaluator for every game: one batching service per device (spread over several). A network
// that cannot be loaded stops the daemon with the reason, unless evaluator.fallback asks for the
// material evaluator (then it warns loudly).
LoadedEvaluator build_evaluator(const Options& options) {
  LoadedEvaluator loaded = load_evaluator(options, LoadPolicy::daemon(options));
  if (!loaded.warnings.empty()) {
    spdlog::error("**************************************************************************");
    for (const auto& w : loaded.warnings) spdlog::error("{}", w);
    spdlog::error("**************************************************************************");
  }
  if (!has_evaluator_backend("torch"))
    spdlog::warn(
        "this zhbot is built without LibTorch: playing with the '{}' evaluator, far weaker than "
        "the shipped network (rebuild with LibTorch: deploy/install-deps.sh, then make)",
        loaded.backend);
  else if (loaded.backend != "torch")
    spdlog::warn(
        "playing with the '{}' evaluator, not a neural network (set evaluator.backend: "
        "torch and evaluator.model)",
        loaded.backend);
  return loaded;
}

// The evaluator's health and inference figures for /metrics and /healthz.
bot::EvaluatorFigures evaluator_figures(const LoadedEvaluator& e) {
  bot::EvaluatorFigures f;
  if (e.service) {
    const InferenceStats s = e.service_stats();
    f.batches = s.batches;
    f.positions = s.positions;
    f.queue_wait_us = s.mean_queue_wait_us;
    f.forward_us = s.mean_forward_us;
  }
  if (e.failover) {
    const FailoverStats s = e.failover->stats();
    f.healthy = s.healthy;
    f.failures = s.failures;
    f.fallback_positions = s.fallback_positions;
  }
  return f;
}

// The evaluator as the status page shows it: what was loaded, on which device, and how it does.
bot::EvaluatorView evaluator_view(const LoadedEvaluator& e, const EvaluatorConfig& config,
                                  const bot::Metrics& metrics) {
  const bot::EvaluatorFigures f = evaluator_figures(e);
  bot::EvaluatorView v;
  v.backend = e.backend;
  v.device = config.device;
  v.precision = config.setting("precision");
  v.healthy = f.healthy;
  v.failures = f.failures;
  v.nodes_per_second = metrics.nodes_per_second();
  if (e.service) {
    v.batch_fill = e.service_stats().mean_fill_ratio;
    v.forward_us = f.forward_us;
  }
  return v;
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "run", "play on lichess as a BOT (token from LICHESS_BOT_TOKEN or lichess.token_file)");
  auto path = std::make_shared<std::string>();
  auto log_format = std::make_shared<std::string>();
  cmd->add_option("--config,-c", *path, "YAML config file (see config/zhbot.yaml)");
  cmd->add_option("--log-format", *log_format, "text or json (default: operations.log_format)")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->callback([path, log_format] {
    bot::LoadedConfig config;
    bot::LoadedToken token;
    try {
      config = bot::load_config(path->empty() ? std::nullopt : std::optional<std::string>(*path));
      token = bot::load_token(std::getenv("LICHESS_BOT_TOKEN"), config.bot.token_file);
    } catch (const bot::ConfigError& e) {
      throw CommandExit(bot::kExitConfig, e.what());  // a restart cannot mend the file
    }
    // From here on the token lives only in `token`: not in the environment children inherit,
    // not in a core dump.
    bot::scrub_environment_variable("LICHESS_BOT_TOKEN");
    const bool no_core = bot::disable_core_dumps();
    bot::LogFile log_file;
    log_file.path = config.bot.log_file;
    log_file.max_bytes = std::size_t(config.bot.log_file_max_mb) << 20;
    log_file.files = std::size_t(config.bot.log_file_count);
    try {
      bot::setup_logging(
          bot::parse_log_format(log_format->empty() ? config.bot.log_format : *log_format),
          config.bot.log_level, {}, log_file);
    } catch (const std::runtime_error& e) {
      throw CommandExit(bot::kExitConfig, e.what());  // a path the operator must fix
    }
    for (const auto& w : token.warnings) spdlog::warn("{}", w);
    spdlog::info("zhbot {} starting; token from {}", ZH_VERSION, token.origin);
    if (!no_core) spdlog::warn("could not turn core dumps off; a core file could hold the token");

    // Before the daemon's threads start, so all inherit the mask; a thread that exists already
    // (a math library's pool) runs the handler instead.
    bot::StopSignals::install();
    LoadedEvaluator evaluator;
    try {
      evaluator = build_evaluator(config.options);
    } catch (const EvaluatorConfigError& e) {
      // A missing, corrupt or wrong network is the configuration's fault: systemd must not
      // restart into the same failure (RestartPreventExitStatus=78).
      throw CommandExit(bot::kExitConfig, e.what());
    }
    evaluator.warnings.clear();  // logged once above, not again by every game's engine
    std::shared_ptr<const bot::BookSources> book_sources;
    try {
      book_sources = bot::load_book_sources(config.bot.book, token.token);
    } catch (const book::BookError& e) {
      throw CommandExit(bot::kExitConfig, e.what());  // a bad book file: fix it first
    }
    if (book_sources && book_sources->book)
      spdlog::info("opening book {}: {} positions, used up to ply {}", config.bot.book.file,
                   book_sources->book->positions(), config.bot.book.max_ply);
    if (book_sources && book_sources->explorer)
      spdlog::info("opening explorer {} (timeout {} ms, {})", config.bot.book.explorer_url,
                   config.bot.book.explorer_timeout_ms,
                   book_sources->explorer_token ? "with the bot's token" : "without a token");
    Options engine_options;
    Engine::declare_options(engine_options);
    DeviceProfile::of(config.options).apply(config.options);  // GPU-sized on a device
    const Options& all = config.options;
    auto make_engine = [evaluator, engine_options, &all,
                        book_sources]() -> std::unique_ptr<bot::MoveEngine> {
      auto engine = std::make_unique<Engine>([evaluator](const Options&) { return evaluator; });
      for (const auto& o : engine_options.all())
        engine->set_option(o.name, all.at(o.name).format(all.at(o.name).value));
      auto adapter = std::make_unique<bot::EngineAdapter>(std::move(engine));
      if (!book_sources) return adapter;
      return std::make_unique<bot::BookMoveEngine>(std::move(adapter), book_sources);
    };

    bot::Daemon daemon(config.bot, token.token, make_engine);
    if (const auto service = evaluator.service)
      daemon.set_batch_fill_source([service] { return service->stats().mean_fill_ratio; });
    if (book_sources && book_sources->explorer_watch)
      daemon.metrics().set_explorer_source([watch = book_sources->explorer_watch] {
        const bot::ExplorerCounts c = watch->counts();
        return bot::ExplorerFigures{c.answered, c.failed, c.failing};
      });
    if (evaluator.service || evaluator.failover)
      daemon.metrics().set_evaluator_source([evaluator] { return evaluator_figures(evaluator); });
    daemon.status().set_evaluator_source(
        [evaluator, evaluator_settings = evaluator_config(all), &daemon] {
          return evaluator_view(evaluator, evaluator_settings, daemon.metrics());
        });
    int rc = 0;
    {
      bot::StopSignals signals([&daemon] { daemon.request_shutdown(); },
                               [&daemon] { daemon.request_immediate_exit(); });
      rc = daemon.run();
    }
    spdlog::default_logger()->flush();
    if (rc != bot::kExitOk)
      throw CommandExit(
          rc, "zhbot run stopped (exit code " + std::to_string(rc) + "); the log above says why");
  });
}

}  // namespace zh::cli
