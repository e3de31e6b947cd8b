// `zhbot selfplay`: N games searched at once through one shared evaluator (see selfplay.h).
// Prints the throughput figures for people, then one JSON line for scripts.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "engine/cli/commands.h"
#include "engine/cli/engine_cli.h"
#include "engine/cli/selfplay.h"

namespace zh::cli {
namespace {

struct SelfplayArgs {
  SelfplayConfig config;
  int threads = 0;
  int batch_size = 0;
  std::string backend, model, device;
};

void run_selfplay_command(SelfplayArgs& a) {
  SelfplayConfig c = a.config;
  // The named flags go first, so an explicit -o of the same option wins.
  std::vector<std::string> named;
  if (a.threads > 0) named.push_back("threads=" + std::to_string(a.threads));
  if (a.batch_size > 0) named.push_back("batch_size=" + std::to_string(a.batch_size));
  if (!a.backend.empty()) named.push_back("backend=" + a.backend);
  if (!a.model.empty()) named.push_back("model=" + a.model);
  if (!a.device.empty()) named.push_back("device=" + a.device);
  c.options.insert(c.options.begin(), named.begin(), named.end());

  const SelfplayReport r = run_selfplay(c);
  std::printf("games %d at once, %lld moves, %lld games finished, %lld records\n", c.games,
              (long long)r.moves, (long long)r.games_finished, (long long)r.records);
  std::printf("evaluator %s%s\n", r.evaluator.c_str(),
              r.devices > 1 ? (", " + std::to_string(r.devices) + " devices").c_str() : "");
  std::printf("nodes %lld in %.2f s: %.0f nodes/s; evaluations %.0f/s\n", (long long)r.nodes,
              r.seconds, r.nodes_per_second(), r.seconds > 0 ? r.evaluations / r.seconds : 0.0);
  nlohmann::json j;
  j["nodes_per_s"] = r.nodes_per_second();
  j["evaluations_per_s"] = r.seconds > 0 ? r.evaluations / r.seconds : 0.0;
  j["games"] = c.games;
  j["seconds"] = r.seconds;
  if (r.service) {
    const InferenceStats& s = *r.service;
    std::printf("batch fill %.1f of max_batch %d (%.0f %%), %llu batches, %llu failed positions\n",
                s.mean_batch_fill, r.max_batch, 100 * s.mean_fill_ratio,
                (unsigned long long)s.batches, (unsigned long long)s.failed);
    std::printf("queue wait %.0f us per position, forward %.0f us per batch\n",
                s.mean_queue_wait_us, s.mean_forward_us);
    j["batch_fill"] = s.mean_fill_ratio;
    j["mean_batch"] = s.mean_batch_fill;
    j["max_batch"] = r.max_batch;
    j["queue_wait_us"] = s.mean_queue_wait_us;
    j["forward_us"] = s.mean_forward_us;
    j["failed"] = s.failed;
  } else {
    std::printf("no inference service (a weightless backend is called directly)\n");
    j["batch_fill"] = nullptr;
  }
  if (r.failover) {
    std::printf("device failures %llu (outages %llu), positions on the fallback %llu, %s\n",
                (unsigned long long)r.failover->failures, (unsigned long long)r.failover->outages,
                (unsigned long long)r.failover->fallback_positions,
                r.failover->healthy ? "healthy at the end" : "UNHEALTHY at the end");
    j["device_failures"] = r.failover->failures;
    j["fallback_positions"] = r.failover->fallback_positions;
  }
  if (r.capacity) {
    std::printf("capacity %.0f %% (the backend's device time over the wall time)\n",
                100 * *r.capacity);
    j["capacity"] = *r.capacity;
  } else {
    j["capacity"] = nullptr;
  }
  if (r.device_limit_per_s) {
    std::printf("sim limit at this batch fill %.0f evaluations/s\n", *r.device_limit_per_s);
    j["device_limit_per_s"] = *r.device_limit_per_s;
  }
  std::printf("%s\n", j.dump().c_str());
}

}  // namespace

void add_selfplay_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "selfplay",
      "N games searched at once through one shared evaluator: nodes/s, batch fill, queue wait, "
      "forward time and device capacity used (optionally writes visit-target training records)");
  auto a = std::make_shared<SelfplayArgs>();
  cmd->add_option("--games", a->config.games, "games searched at once")->check(CLI::PositiveNumber);
  cmd->add_option("--nodes", a->config.nodes, "playouts per move")->check(CLI::PositiveNumber);
  cmd->add_option("--plies", a->config.plies,
                  "moves each game slot plays (a finished game is followed by a new one)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--threads", a->threads, "search threads per game (engine option threads)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--batch-size", a->batch_size, "leaves per search thread per evaluation")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--backend", a->backend, "evaluator backend (torch, sim, material, uniform)");
  cmd->add_option("--model", a->model, "model file for the torch backend");
  cmd->add_option("--device", a->device, "cpu, cuda or cuda:N");
  cmd->add_option("--seed", a->config.seed, "game g searches with seed + g");
  cmd->add_option("--out", a->config.out,
                  "write training records here (policy target: the visit distribution)");
  add_engine_option_flag(*cmd, a->config.options);
  cmd->callback([a] { run_selfplay_command(*a); });
}

}  // namespace zh::cli
