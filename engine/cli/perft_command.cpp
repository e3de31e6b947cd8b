// `zhbot perft`: leaf counts of the legal move tree, one position or the benchmark suite.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "engine/chess/notation.h"
#include "engine/chess/perft.h"
#include "engine/cli/commands.h"
#include "engine/util/clock.h"

namespace zh::cli {

namespace {

struct BenchPosition {
  const char* fen;
  int depth;
  std::uint64_t expected;  // from tests/data/zh-perft.epd: the bench also checks correctness
};

// Drop-heavy middlegames dominate crazyhouse search, so most of the suite has full pockets.
constexpr BenchPosition kBenchSuite[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", 6, 120812942},
    {"2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1", 3, 15634852},
    {"2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - - 0 1", 4, 10118606},
    {"b3kb2/pn1ppp1Q~/pPqr2p1/2p5/7R/R5P1/P1PP1PBP/1NBQ2NK/PNR w - - 4 6", 4, 14733374},
    {"r2q1rk1/ppp2pp1/1bnp3p/3B4/3PP1b1/4PN2/PP4PP/R2Q1RK1[BNPnp] b - - 0 13", 4, 103835193},
    {"r1b1k2r/p1pq1ppp/1bBbnp2/8/6N1/5P2/PPP2PPP/R4RK1/PQPPNn w kq - 30 16", 4, 55267362},
    {"r2B1rk1/ppp2ppp/3p4/4p3/2B5/2NP1R1P/PPPn2K1/8/QPBQPRNNbp w - - 40 21", 4, 305458648},
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(zh::steady_clock().now() - start).count();
}

int run_bench(bool list_only) {
  if (list_only) {
    for (const auto& b : kBenchSuite)
      std::printf("%s ; %d ; %llu\n", b.fen, b.depth, (unsigned long long)b.expected);
    return 0;
  }
  std::uint64_t total = 0;
  double total_seconds = 0;
  int wrong = 0;
  for (const auto& b : kBenchSuite) {
    const Position pos = Position::from_fen(b.fen);
    const auto start = zh::steady_clock().now();
    const std::uint64_t nodes = perft(pos, b.depth);
    const double secs = seconds_since(start);
    total += nodes;
    total_seconds += secs;
    const bool ok = nodes == b.expected;
    wrong += !ok;
    std::printf("%-78s d%d %12llu %7.3f s %8.2f Mnps%s\n", b.fen, b.depth,
                (unsigned long long)nodes, secs, nodes / secs / 1e6, ok ? "" : "  WRONG COUNT");
  }
  std::printf("Total nodes: %llu\nSeconds: %.3f\nNodes/s: %.0f\n", (unsigned long long)total,
              total_seconds, total / total_seconds);
  return wrong == 0 ? 0 : 1;
}

int run_single(const std::string& fen, int depth, bool divide) {
  const Position pos = fen.empty() ? Position() : Position::from_fen(fen);
  const auto start = zh::steady_clock().now();
  std::uint64_t nodes = 0;
  if (divide) {
    for (const auto& [move, count] : perft_divide(pos, depth)) {
      std::printf("%s: %llu\n", to_uci(move).c_str(), (unsigned long long)count);
      nodes += count;
    }
  } else {
    nodes = perft(pos, depth);
  }
  const double secs = seconds_since(start);
  std::printf("Nodes searched: %llu\nSeconds: %.3f\nNodes/s: %.0f\n", (unsigned long long)nodes,
              secs, secs > 0 ? nodes / secs : 0.0);
  return 0;
}

}  // namespace

void add_perft_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("perft", "count leaf nodes of the legal move tree");
  auto fen = std::make_shared<std::string>();
  auto depth = std::make_shared<int>(4);
  auto divide = std::make_shared<bool>(false);
  auto bench = std::make_shared<bool>(false);
  auto list = std::make_shared<bool>(false);
  cmd->add_option("--fen", *fen, "position (default: the start position)");
  cmd->add_option("--depth,-d", *depth, "depth in plies")->check(CLI::Range(1, 12));
  cmd->add_flag("--divide", *divide, "print the count below each root move");
  cmd->add_flag("--bench", *bench, "run the benchmark suite (fixed positions and depths)");
  cmd->add_flag("--list", *list, "with --bench: print the suite as 'FEN ; depth ; count' lines");
  cmd->callback([=] {
    int rc = *bench ? run_bench(*list) : run_single(*fen, *depth, *divide);
    if (rc != 0) throw std::runtime_error("perft counts did not match the reference");
  });
}

}  // namespace zh::cli
