// `zhbot bench`: a deterministic search benchmark. Fixed positions, a fixed playout count
// each, the `uniform` backend, a fixed seed and one thread, so the node count and the
// signature only change when the search's behaviour changes; nodes/s measures the search
// alone (no network cost). Also reports the tree's memory per expanded node.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "engine/chess/notation.h"
#include "engine/cli/bench_positions.h"
#include "engine/cli/commands.h"
#include "engine/cli/engine_cli.h"
#include "engine/engine.h"
#include "engine/util/clock.h"

namespace zh::cli {

namespace {

class Collect final : public SearchListener {
 public:
  void on_info(const SearchInfo& info) override { last = info; }
  void on_bestmove(const BestMove& b) override { best = b; }
  SearchInfo last;
  BestMove best;
};

std::uint64_t fnv(std::uint64_t h, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) {
    h ^= (v >> (8 * i)) & 0xFF;
    h *= 0x100000001B3ULL;
  }
  return h;
}

struct BenchArgs {
  std::int64_t nodes = 10000;
  std::vector<std::string> options;
  bool quiet = false;
};

void run_bench(const BenchArgs& a) {
  Engine engine;
  // The fixed setup; -o may change it on purpose (e.g. threads), which changes the signature.
  engine.set_option("backend", "uniform");
  engine.set_option("threads", "1");
  engine.set_option("seed", "1");
  // The root prover works by the clock beside the workers: its proofs land at a time, not at a
  // playout count, so the signature leaves it out (the leaf mate search is in).
  engine.set_option("root_mate_share", "0");
  apply_engine_options(engine, a.options);
  std::int64_t total_nodes = 0;
  double total_seconds = 0;
  std::uint64_t signature = 0xCBF29CE484222325ULL;
  double bytes_sum = 0;
  std::int64_t expanded_sum = 0;
  double mid_bytes = 0;
  std::int64_t mid_expanded = 0;
  int index = 0;
  for (const char* fen : kBenchFens) {
    ++index;
    engine.new_game();
    engine.set_position(fen, {});
    auto listener = std::make_shared<Collect>();
    SearchLimits limits;
    limits.nodes = a.nodes;
    const auto start = zh::steady_clock().now();
    engine.go(limits, listener);
    engine.wait();
    const double secs = std::chrono::duration<double>(zh::steady_clock().now() - start).count();
    const SearchSnapshot s = engine.last_result();
    total_nodes += s.playouts;
    total_seconds += secs;
    signature = fnv(signature, std::uint64_t(s.playouts));
    signature = fnv(signature, listener->best.move.raw());
    for (const RootChild& c : s.children) signature = fnv(signature, c.visits);
    bytes_sum += double(s.tree_bytes);
    expanded_sum += s.expanded_nodes;
    const bool middlegame = s.children.size() >= 80;
    if (middlegame) {
      mid_bytes += double(s.tree_bytes);
      mid_expanded += s.expanded_nodes;
    }
    if (!a.quiet)
      std::printf("%2d %-7s %7lld nodes %8.0f nodes/s %4zu moves %7.0f B/expanded node  %s\n",
                  index, to_uci(listener->best.move).c_str(), (long long)s.playouts,
                  secs > 0 ? s.playouts / secs : 0.0, s.children.size(),
                  s.expanded_nodes ? double(s.tree_bytes) / s.expanded_nodes : 0.0, fen);
  }
  std::printf("Nodes searched: %lld\n", (long long)total_nodes);
  std::printf("Nodes/second: %.0f\n", total_seconds > 0 ? total_nodes / total_seconds : 0.0);
  std::printf("Bytes per expanded node: %.0f (all), %.0f (positions with >= 80 legal moves)\n",
              expanded_sum ? bytes_sum / expanded_sum : 0.0,
              mid_expanded ? mid_bytes / mid_expanded : 0.0);
  std::printf("Signature: %016llx\n", (unsigned long long)signature);
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "bench", "deterministic search benchmark (uniform backend, 1 thread, fixed seed)");
  auto a = std::make_shared<BenchArgs>();
  cmd->add_option("--nodes", a->nodes, "playouts per position")->check(CLI::PositiveNumber);
  cmd->add_flag("--quiet,-q", a->quiet, "print the totals only");
  add_engine_option_flag(*cmd, a->options);
  cmd->callback([a] { run_bench(*a); });
}

}  // namespace zh::cli
