// `zhbot graph-bench`: the Monte-Carlo graph against the tree in one run, from the same bench
// positions at the same playout counts: the search's memory (tree_bytes: nodes, edges, blocks,
// the table or cache) and nodes/s, each with the ratio graph / tree. A measuring program, not
// a test: its figures depend on the machine and the evaluator (-o backend=...).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/cli/bench_positions.h"
#include "engine/cli/commands.h"
#include "engine/cli/engine_cli.h"
#include "engine/engine.h"
#include "engine/util/clock.h"

namespace zh::cli {

namespace {

class Ignore final : public SearchListener {
 public:
  void on_info(const SearchInfo&) override {}
  void on_bestmove(const BestMove&) override {}
};

struct GraphBenchArgs {
  std::vector<std::int64_t> nodes{100000, 1000000};
  std::vector<int> positions{1, 10};  // the start position and a drop-heavy middlegame
  std::vector<std::string> options;
};

struct Run {
  std::int64_t playouts = 0;
  double seconds = 0;
  std::size_t bytes = 0;
  std::int64_t tree_nodes = 0;
  std::int64_t evaluations = 0;
  StopReason reason = StopReason::kNone;
};

Run search_once(Engine& engine, const char* fen, std::int64_t nodes, bool graph) {
  engine.set_option("graph", graph ? "true" : "false");
  engine.new_game();
  engine.set_position(fen, {});
  SearchLimits limits;
  limits.nodes = nodes;
  const auto start = zh::steady_clock().now();
  engine.go(limits, std::make_shared<Ignore>());
  engine.wait();
  Run r;
  r.seconds = std::chrono::duration<double>(zh::steady_clock().now() - start).count();
  const SearchSnapshot s = engine.last_result();
  r.playouts = s.playouts;
  r.bytes = s.tree_bytes;
  r.tree_nodes = s.tree_nodes;
  r.evaluations = s.evaluations;
  r.reason = s.reason;
  return r;
}

void print_run(const char* what, const Run& r) {
  std::printf(
      "  %-5s %8lld playouts %7.1f s %8.0f nodes/s %8.1f MiB %6.0f B/playout %8lld nodes "
      "%8lld evaluations (%s)\n",
      what, (long long)r.playouts, r.seconds, r.seconds > 0 ? r.playouts / r.seconds : 0.0,
      double(r.bytes) / (1 << 20), r.playouts ? double(r.bytes) / r.playouts : 0.0,
      (long long)r.tree_nodes, (long long)r.evaluations, to_string(r.reason));
}

void run_graph_bench(const GraphBenchArgs& a) {
  constexpr int kCount = int(sizeof(kBenchFens) / sizeof(kBenchFens[0]));
  Engine engine;
  engine.set_option("backend", "uniform");
  engine.set_option("threads", "1");
  engine.set_option("seed", "1");
  engine.set_option("root_mate_share", "0");    // works by the clock: not the same in both runs
  engine.set_option("max_memory_mb", "65536");  // measured, not capped
  apply_engine_options(engine, a.options);
  for (const std::int64_t n : a.nodes) {
    double tree_bytes = 0, graph_bytes = 0, tree_secs = 0, graph_secs = 0;
    std::int64_t tree_playouts = 0, graph_playouts = 0;
    for (const int p : a.positions) {
      if (p < 1 || p > kCount)
        throw std::invalid_argument("--positions: " + std::to_string(p) + " is not 1 to " +
                                    std::to_string(kCount));
      const char* fen = kBenchFens[p - 1];
      std::printf("position %d, %lld playouts: %s\n", p, (long long)n, fen);
      const Run tree = search_once(engine, fen, n, false);
      print_run("tree", tree);
      const Run graph = search_once(engine, fen, n, true);
      print_run("graph", graph);
      std::printf("  graph / tree: memory %.3f, nodes/s %.3f\n",
                  double(graph.bytes) / double(tree.bytes),
                  (graph.playouts / graph.seconds) / (tree.playouts / tree.seconds));
      tree_bytes += double(tree.bytes);
      graph_bytes += double(graph.bytes);
      tree_secs += tree.seconds;
      graph_secs += graph.seconds;
      tree_playouts += tree.playouts;
      graph_playouts += graph.playouts;
    }
    std::printf("%lld playouts, all positions: graph / tree memory %.3f, nodes/s %.3f\n",
                (long long)n, graph_bytes / tree_bytes,
                (graph_playouts / graph_secs) / (tree_playouts / tree_secs));
  }
}

}  // namespace

void add_graph_bench_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("graph-bench",
                                 "memory and nodes/s of the graph search against the tree, same "
                                 "positions and playouts, one run (uniform backend unless -o)");
  auto a = std::make_shared<GraphBenchArgs>();
  cmd->add_option("--nodes", a->nodes, "playouts per search (several: each in turn)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--positions", a->positions, "which of zhbot bench's positions (1-based)");
  add_engine_option_flag(*cmd, a->options);
  cmd->callback([a] { run_graph_bench(*a); });
}

}  // namespace zh::cli
