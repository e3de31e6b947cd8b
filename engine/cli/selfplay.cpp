#include "engine/cli/selfplay.h"

#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "engine/cli/engine_cli.h"
#include "engine/datagen/labelling.h"
#include "engine/datagen/shard_io.h"
#include "engine/engine.h"
#include "engine/nn/backends/sim.h"
#include "engine/util/clock.h"

namespace zh::cli {
namespace {

class LastMove final : public SearchListener {
 public:
  void on_info(const SearchInfo&) override {}
  void on_bestmove(const BestMove& b) override { best = b; }
  BestMove best;
};

struct SlotResult {
  std::int64_t nodes = 0, evaluations = 0, moves = 0, finished = 0, records = 0;
};

// One game slot: plays config.plies moves, starting a new game whenever one ends.
SlotResult play_slot(int slot, const SelfplayConfig& config, const LoadedEvaluator& shared,
                     datagen::ShardWriter* writer) {
  Engine engine([shared](const Options&) { return shared; });
  apply_engine_options(engine, config.options);
  engine.set_option("seed", std::to_string(config.seed + std::uint64_t(slot)));
  SlotResult r;
  Game game;
  std::vector<datagen::Record> records;
  std::vector<Color> movers;
  std::uint64_t game_id = (config.seed << 20) ^ (std::uint64_t(slot) << 10);
  auto flush = [&](GameResult result) {
    if (!writer || records.empty()) return;
    for (std::size_t i = 0; i < records.size(); ++i)
      datagen::set_result(records[i], movers[i], result);
    writer->add_game(records);
    r.records += std::int64_t(records.size());
    records.clear();
    movers.clear();
  };
  engine.new_game();
  for (int ply = 0; ply < config.plies; ++ply) {
    engine.set_game(game);
    auto listener = std::make_shared<LastMove>();
    SearchLimits limits;
    limits.nodes = config.nodes;
    engine.go(limits, listener);
    engine.wait();
    if (!listener->best.error.empty())
      throw std::runtime_error("game " + std::to_string(slot) + ": " + listener->best.error);
    const SearchSnapshot s = engine.last_result();
    r.nodes += s.playouts;
    r.evaluations += s.evaluations;
    if (writer && s.root_visits > 1) {
      std::vector<datagen::VisitedMove> visited;
      for (const RootChild& c : s.children)
        if (c.visits > 0) visited.push_back({c.move, c.visits});
      if (!visited.empty()) {
        const float q = s.best >= 0 ? s.children[std::size_t(s.best)].q : 0.0f;
        const EvalInput input{game.position(), game.repetitions(), last_moves_of(game.moves())};
        records.push_back(
            datagen::make_visit_record(input, int(game.moves().size()), game_id, visited, q));
        movers.push_back(game.position().side_to_move());
      }
    }
    if (!listener->best.move.is_null()) {
      game.play(listener->best.move);
      ++r.moves;
    }
    const GameOutcome outcome = game.outcome();
    if (listener->best.move.is_null() || outcome.result != GameResult::kOngoing) {
      ++r.finished;
      flush(outcome.result == GameResult::kOngoing ? GameResult::kDraw : outcome.result);
      game = Game();
      ++game_id;
      engine.new_game();
    }
  }
  // A game cut off by the move budget has no result: its records would teach a wrong value.
  records.clear();
  return r;
}

}  // namespace

SelfplayReport run_selfplay(const SelfplayConfig& config) {
  if (config.games < 1) throw std::invalid_argument("selfplay: --games must be >= 1");
  if (config.nodes < 1) throw std::invalid_argument("selfplay: --nodes must be >= 1");
  // One evaluator for every game: a network or the sim behind an InferenceService per device.
  Options options;
  Engine::declare_options(options);
  for (const std::string& pair : config.options) {  // names a bad option before any work
    const auto eq = pair.find('=');
    if (eq == std::string::npos)
      throw OptionError("option '" + pair + "' must be written NAME=VALUE");
    options.set(pair.substr(0, eq), pair.substr(eq + 1));
  }
  const LoadedEvaluator shared = load_evaluator(options, LoadPolicy::exact());
  std::unique_ptr<datagen::ShardWriter> writer;
  if (!config.out.empty()) {
    std::filesystem::create_directories(config.out);
    writer = std::make_unique<datagen::ShardWriter>(config.out, "selfplay", 100000, 0.0f);
  }

  std::vector<SlotResult> results(std::size_t(config.games));
  std::vector<std::exception_ptr> errors(std::size_t(config.games));
  const auto start = zh::steady_clock().now();
  {
    std::vector<std::thread> slots;
    for (int g = 0; g < config.games; ++g)
      slots.emplace_back([&, g] {
        try {
          results[std::size_t(g)] = play_slot(g, config, shared, writer.get());
        } catch (...) {
          errors[std::size_t(g)] = std::current_exception();
        }
      });
    for (auto& t : slots) t.join();
  }
  SelfplayReport report;
  report.seconds = std::chrono::duration<double>(zh::steady_clock().now() - start).count();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  if (writer) writer->close();
  for (const SlotResult& r : results) {
    report.nodes += r.nodes;
    report.evaluations += r.evaluations;
    report.moves += r.moves;
    report.games_finished += r.finished;
    report.records += r.records;
  }
  report.evaluator = shared.evaluator->name();
  if (shared.failover) report.failover = shared.failover->stats();
  if (shared.service) {
    const InferenceStats s = shared.service_stats();
    report.service = s;
    report.max_batch = shared.service->config().max_batch;
    report.devices = int(shared.services.size());
    // Device-seconds used over device-seconds available.
    double busy = 0, limit = 0;
    bool all_sim = true;
    for (const auto& service : shared.services) {
      if (const auto* sim = dynamic_cast<const SimEvaluator*>(&service->backend())) {
        busy += sim->busy_seconds();
        limit += sim->positions_per_second(std::max(1.0, s.mean_batch_fill));
      } else {
        all_sim = false;
        busy += service->stats().busy_seconds;
      }
    }
    report.capacity = busy / (report.seconds * double(shared.services.size()));
    if (all_sim) report.device_limit_per_s = limit;
  }
  return report;
}

}  // namespace zh::cli
