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
#include "engine/cli/run_main.h"
#include "engine/datagen/datagen.h"
#include "engine/datagen/jsonl_import.h"
#include "engine/datagen/reencode.h"
#include "engine/datagen/shard_io.h"

namespace zh::cli {
namespace {

std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};

extern "C" void on_stop_signal(int signal) {
  g_signal = signal;
  g_stop = true;
}

struct DatagenArgs {
  datagen::DatagenOptions options;
  std::string import_file;
  std::string reencode_dir;
  std::vector<std::filesystem::path> relabel_files;
  std::string format = "1.0";
  bool seed_given = false;
};

void run_datagen_command(DatagenArgs& a) {
  a.options.format = parse_input_format(a.format);
  if (!a.reencode_dir.empty()) {
    const auto r = datagen::reencode(a.reencode_dir, a.options.out, a.options.format);
    std::cout << "reencode: " << r.records << " records in " << r.shards << " shard(s) written to "
              << a.options.out.string() << " in input " << describe(a.options.format) << "; "
              << r.recovered << " last moves recovered, " << r.unknown
              << " unknown (no record one ply earlier leads there)\n";
    return;
  }
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
  if (!a.relabel_files.empty()) {
    datagen::RecordedGames recorded = datagen::read_recorded_games(a.relabel_files);
    datagen::print_report(recorded, std::cout);
    if (recorded.games.empty())
      throw CommandExit(2, "datagen --relabel: no finished game to label in the files given");
    a.options.prefix = "recorded";
    a.options.recorded = std::move(recorded.games);
    std::cout << "datagen: labelling the positions of " << a.options.recorded->size()
              << " recorded games\n";
  } else if (a.options.own.enabled) {
    const auto& own = a.options.own;
    a.options.prefix = "own";
    std::cout << "datagen: own games, zhbot at " << own.nodes << " nodes a move (first "
              << own.sampled_moves << " moves at temperature " << own.temperature
              << (own.dirichlet_noise ? ", root noise" : ", no noise") << ") against ";
    if (own.skill_levels.empty()) std::cout << "itself";
    for (std::size_t i = 0; i < own.skill_levels.size(); ++i)
      std::cout << (i ? "," : "Fairy-Stockfish at Skill Level ") << own.skill_levels[i];
    std::cout << "\n";
  }
  std::cout << "datagen: seed " << a.options.seed << ", " << a.options.workers
            << " worker(s), teacher " << a.options.teacher.path << " at "
            << (a.options.teacher.nodes > 0 ? std::to_string(a.options.teacher.nodes) + " nodes"
                                            : "depth " + std::to_string(a.options.teacher.depth))
            << ", MultiPV " << a.options.teacher.multipv << ", out " << a.options.out.string()
            << std::endl;
  const auto report = datagen::run_datagen(a.options, g_stop, std::cerr);
  datagen::print_report(report, std::cout);
  if (g_stop.load()) {
    // What was written is kept and a later run takes it up, but the run did not finish: the
    // exit status says so (128 + the signal, as a shell reports it), or a pipeline that marks
    // a chunk made when its command succeeds would take a partial one.
    std::cout << "stopped by signal: the games in flight were dropped\n" << std::flush;
    throw CLI::RuntimeError(128 + g_signal.load());
  }
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
  auto* import =
      cmd->add_option("--import", a->import_file,
                      "turn a labelled JSONL(.gz) file into shards instead of playing games");
  cmd->add_option("--reencode", a->reencode_dir,
                  "write the shards of this folder again in --format instead of playing games")
      ->excludes(import);
  cmd->add_option("--format", a->format,
                  "input format of the shards written: 1.0 (34 planes) or 2.0 (46 planes)")
      ->default_str(a->format);
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
  auto* own = cmd->add_flag("--own-games", o.own.enabled,
                            "zhbot plays (one side or both), the teacher labels every position");
  cmd->add_option("--relabel", a->relabel_files,
                  "label every position of these recorded games instead of playing games: match "
                  "records (one JSON object a line with opening, moves, result), PGN files, or "
                  "folders of them (the daemon's pgn_dir)")
      ->check(CLI::ExistingPath)
      ->excludes(import)
      ->excludes(own)
      ->excludes("--reencode")
      ->excludes("--games")
      ->excludes(positions);
  cmd->add_option("--zhbot-option", o.own.engine_options,
                  "engine option NAME=VALUE for zhbot (backend, model, ...), repeatable")
      ->needs(own);
  cmd->add_option("--zhbot-nodes", o.own.nodes, "zhbot's playouts per move")
      ->default_str(std::to_string(o.own.nodes))
      ->needs(own);
  cmd->add_option("--zhbot-sampled-moves", o.own.sampled_moves,
                  "zhbot's first N moves are drawn from its visits with the temperature")
      ->default_str(std::to_string(o.own.sampled_moves))
      ->needs(own);
  cmd->add_option("--zhbot-temperature", o.own.temperature, "temperature of that draw")
      ->default_str("1.0")
      ->needs(own);
  cmd->add_flag(
         "--no-noise", [&o](std::int64_t) { o.own.dirichlet_noise = false; },
         "no Dirichlet noise at zhbot's root")
      ->needs(own);
  cmd->add_option("--skill-levels", o.own.skill_levels,
                  "Fairy-Stockfish Skill Levels zhbot meets, cycled by game, e.g. 5,10,15 "
                  "(default: zhbot plays itself)")
      ->delimiter(',')
      ->needs(own);
  cmd->add_option("--opponent-nodes", o.own.opponent_nodes, "the opponent's nodes per move")
      ->default_str(std::to_string(o.own.opponent_nodes))
      ->needs(own);
  cmd->add_option("--shard-records", o.shard_records, "records per shard")
      ->default_str(std::to_string(o.shard_records));
  cmd->add_option("--shard-minutes", o.shard_minutes,
                  "close a shard open this long, so a run cut off loses at most that (0: never)")
      ->check(CLI::NonNegativeNumber)
      ->default_str("10");
  cmd->add_option("--progress", o.progress_seconds, "seconds between progress lines")
      ->check(CLI::Range(0.1, 86400.0))
      ->default_str("10");
  cmd->callback([a] { run_datagen_command(*a); });
}

}  // namespace zh::cli
