// `zhbot datagen`: labelled positions from a teacher engine (or imported from a JSONL file)
// written as training shards. See training/README.md for the record format and the recipe.
#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <iostream>
#include <memory>
#include <random>
#include <thread>

#include "engine/cli/commands.h"
#include "engine/datagen/datagen.h"
#include "engine/datagen/jsonl_import.h"
#include "engine/datagen/shard_io.h"

namespace zh::cli {
namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_stop_signal(int) { g_stop = true; }

struct DatagenArgs {
  datagen::DatagenOptions options;
  std::string import_file;
  bool seed_given = false;
};

void run_datagen_command(DatagenArgs& a) {
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  if (!a.import_file.empty()) {
    const std::string prefix = std::filesystem::path(a.import_file).filename().string();
    datagen::ShardWriter writer(a.options.out, prefix.substr(0, prefix.find('.')),
                                a.options.shard_records, 0.0f);
    const auto report = datagen::import_jsonl(a.import_file, writer, std::cerr);
    writer.close();
    datagen::print_report(report, std::cout);
    std::cout << "shards       " << writer.shards_written().size() << " written to "
              << a.options.out.string() << "\n";
    return;
  }
  if (!a.seed_given)
    a.options.seed = std::random_device{}() * 0x100000000ull + std::random_device{}();
  std::cout << "datagen: seed " << a.options.seed << ", " << a.options.workers
            << " worker(s), teacher " << a.options.teacher.path << " at "
            << (a.options.teacher.nodes > 0 ? std::to_string(a.options.teacher.nodes) + " nodes"
                                            : "depth " + std::to_string(a.options.teacher.depth))
            << ", MultiPV " << a.options.teacher.multipv << ", out " << a.options.out.string()
            << std::endl;
  const auto report = datagen::run_datagen(a.options, g_stop, std::cerr);
  datagen::print_report(report, std::cout);
  if (g_stop.load()) std::cout << "stopped by signal: the games in flight were dropped\n";
}

}  // namespace

void add_datagen_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "datagen", "write training shards from teacher games (or --import labelled JSONL)");
  auto a = std::make_shared<DatagenArgs>();
  auto& o = a->options;
  o.workers = int(std::max(1u, std::thread::hardware_concurrency()));
  cmd->add_option("--out", o.out, "directory for the shards (created; existing shards are kept)")
      ->required();
  cmd->add_option("--import", a->import_file,
                  "turn a labelled JSONL(.gz) file into shards instead of playing games");
  cmd->add_option("--workers,-w", o.workers, "teacher processes (default: the core count)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--teacher", o.teacher.path, "UCI engine with crazyhouse")
      ->default_str(o.teacher.path);
  auto* nodes = cmd->add_option("--nodes", o.teacher.nodes, "teacher nodes per position")
                    ->default_str(std::to_string(o.teacher.nodes))
                    ->check(CLI::PositiveNumber);
  cmd->add_option("--depth", o.teacher.depth, "teacher depth per position (instead of --nodes)")
      ->check(CLI::PositiveNumber)
      ->excludes(nodes)
      ->each([&o](const std::string&) { o.teacher.nodes = 0; });
  cmd->add_option("--multipv", o.teacher.multipv, "teacher lines per position (soft policy)")
      ->default_str(std::to_string(o.teacher.multipv))
      ->check(CLI::Range(1, datagen::kPolicySlots));
  cmd->add_option("--hash", o.teacher.hash_mb, "teacher hash in MB")
      ->default_str(std::to_string(o.teacher.hash_mb));
  auto* positions = cmd->add_option("--positions", o.positions, "stop after this many positions");
  cmd->add_option("--games", o.games, "stop after this many games")->excludes(positions);
  cmd->add_option("--seed", o.seed, "random seed (default: random, printed)")
      ->each([a](const std::string&) { a->seed_given = true; });
  cmd->add_option("--random-plies", o.game.random_plies_max,
                  "the first 0..N plies of a game are random legal moves")
      ->default_str(std::to_string(o.game.random_plies_max));
  cmd->add_option("--sample-plies", o.game.sample_plies,
                  "then N plies drawn from the teacher's MultiPV lines")
      ->default_str(std::to_string(o.game.sample_plies));
  cmd->add_option("--sample-temperature", o.game.sample_temperature_cp,
                  "softmax temperature (centipawns) of that draw")
      ->default_str(std::to_string(int(o.game.sample_temperature_cp)));
  cmd->add_option("--policy-temperature", o.game.policy_temperature_cp,
                  "soft policy target from MultiPV scores, temperature in centipawns (0: one-hot)")
      ->default_str(std::to_string(int(o.game.policy_temperature_cp)));
  cmd->add_option("--max-plies", o.game.max_plies, "adjudicate games this long by the score")
      ->default_str(std::to_string(o.game.max_plies));
  cmd->add_option("--shard-records", o.shard_records, "records per shard")
      ->default_str(std::to_string(o.shard_records));
  cmd->add_option("--shard-minutes", o.shard_minutes,
                  "close a shard open this long, so a run cut off loses at most that (0: never)")
      ->check(CLI::NonNegativeNumber)
      ->default_str("10");
  cmd->add_option("--progress", o.progress_seconds, "seconds between progress lines")
      ->default_str("10");
  cmd->callback([a] { run_datagen_command(*a); });
}

}  // namespace zh::cli
