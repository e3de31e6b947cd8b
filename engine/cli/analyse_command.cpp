// `zhbot analyse`: search one position and print the principal variation, the score and the
// top moves with their statistics.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <sstream>

#include "engine/chess/notation.h"
#include "engine/cli/commands.h"
#include "engine/cli/engine_cli.h"
#include "engine/engine.h"
#include "engine/search/formulas.h"

namespace zh::cli {

namespace {

class Quiet final : public SearchListener {
 public:
  void on_info(const SearchInfo& info) override { last = info; }
  void on_bestmove(const BestMove& b) override { best = b; }
  void on_message(const std::string& text) override { std::fprintf(stderr, "%s\n", text.c_str()); }
  SearchInfo last;
  BestMove best;
};

std::string pv_san(Position pos, const std::vector<Move>& pv) {
  std::string out;
  for (Move m : pv) {
    if (!pos.is_legal(m)) break;
    if (!out.empty()) out += ' ';
    out += to_san(pos, m);
    pos.do_move(m);
  }
  return out;
}

struct AnalyseArgs {
  std::string fen;
  std::string moves;
  std::int64_t nodes = 0;
  std::int64_t movetime = 0;
  int top = 5;
  std::vector<std::string> options;
};

void run_analyse(const AnalyseArgs& a) {
  Engine engine;
  apply_engine_options(engine, a.options);
  std::vector<std::string> moves;
  std::istringstream is(a.moves);
  for (std::string m; is >> m;) moves.push_back(m);
  engine.set_position(a.fen, moves);
  SearchLimits limits;
  limits.nodes = a.nodes;
  limits.movetime = a.movetime;
  if (a.nodes == 0 && a.movetime == 0) limits.nodes = 20000;
  // The network loads before the clock starts, as a GUI's isready has it load: --movetime is
  // the search's time.
  for (const auto& warning : engine.ensure_ready())
    std::fprintf(stderr, "WARNING: %s\n", warning.c_str());
  auto listener = std::make_shared<Quiet>();
  engine.go(limits, listener);
  engine.wait();
  const SearchSnapshot s = engine.last_result();
  const Position pos = engine.game().position();
  const SearchInfo& info = listener->last;
  std::printf("position   %s\n", pos.fen().c_str());
  if (listener->best.move.is_null()) {
    std::printf("no legal move (%s)\n", pos.in_check() ? "checkmate" : "stalemate");
    return;
  }
  std::printf("bestmove   %s (%s)\n", to_uci(listener->best.move).c_str(),
              to_san(pos, listener->best.move).c_str());
  if (info.mate)
    std::printf("score      mate %d\n", *info.mate);
  else
    std::printf("score      cp %d (Q %.3f)\n", info.cp, info.q);
  std::string pv_uci;
  for (Move m : info.pv) {
    if (!pv_uci.empty()) pv_uci += ' ';
    pv_uci += to_uci(m);
  }
  std::printf("pv         %s\n           %s\n", pv_uci.c_str(), pv_san(pos, info.pv).c_str());
  std::printf("nodes      %lld in %lld ms (%lld nodes/s), %lld network evaluations\n",
              (long long)info.nodes, (long long)info.time_ms, (long long)info.nps,
              (long long)info.evaluations);
  std::printf(
      "tree       %lld nodes (%lld expanded), %.1f MiB = %.0f bytes per expanded node, "
      "stop: %s\n",
      (long long)s.tree_nodes, (long long)s.expanded_nodes, double(s.tree_bytes) / (1 << 20),
      s.expanded_nodes ? double(s.tree_bytes) / double(s.expanded_nodes) : 0.0,
      to_string(s.reason));
  std::vector<int> order(s.children.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return s.children[x].visits > s.children[y].visits; });
  std::printf("top moves  %-8s %-8s %8s %7s %7s %7s\n", "uci", "san", "visits", "Q", "cp", "prior");
  for (int k = 0; k < std::min<int>(a.top, int(order.size())); ++k) {
    const RootChild& c = s.children[order[k]];
    std::string note;
    if (c.proof == Proof::kLoss)
      note = "  wins (mate in " + std::to_string((c.proof_plies + 2) / 2) + ")";
    if (c.proof == Proof::kWin) note = "  loses by force";
    if (c.proof == Proof::kDraw) note = "  draw";
    std::printf("           %-8s %-8s %8u %7.3f %7d %7.3f%s\n", to_uci(c.move).c_str(),
                to_san(pos, c.move).c_str(), c.visits, c.q, formulas::value_to_centipawns(c.q),
                c.prior, note.c_str());
  }
}

}  // namespace

void add_analyse_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("analyse", "search one position; print PV, score, top moves");
  auto a = std::make_shared<AnalyseArgs>();
  cmd->add_option("--fen", a->fen, "position (default: the start position)");
  cmd->add_option("--moves", a->moves, "UCI moves played from the position, space separated");
  auto* nodes = cmd->add_option("--nodes", a->nodes, "playouts to search (default 20000)")
                    ->check(CLI::PositiveNumber);
  cmd->add_option("--movetime", a->movetime, "milliseconds to search")
      ->check(CLI::PositiveNumber)
      ->excludes(nodes);
  cmd->add_option("--top", a->top, "how many moves to list")->check(CLI::Range(1, 500));
  add_engine_option_flag(*cmd, a->options);
  cmd->callback([a] { run_analyse(*a); });
}

}  // namespace zh::cli
