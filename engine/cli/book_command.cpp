// `zhbot book build` and `zhbot book probe`: make a crazyhouse opening book from teacher data
// or PGNs, and show what a book holds for a position (docs/opening-book.md).
#include <CLI/CLI.hpp>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "engine/book/book_sources.h"
#include "engine/book/opening_book.h"
#include "engine/chess/notation.h"
#include "engine/cli/commands.h"
#include "engine/cli/run_main.h"

namespace zh::cli {
namespace {

struct BuildArgs {
  std::string out;
  std::vector<std::string> shards, teacher, pgns;
  book::BuildOptions options;
};

void run_build(const BuildArgs& a) {
  if (a.shards.empty() && a.teacher.empty() && a.pgns.empty())
    throw CommandExit(2,
                      "book build: give at least one source (--from-shards, --from-teacher "
                      "or --from-pgn)");
  book::BookBuilder builder(a.options);
  std::vector<book::SourceReport> reports;
  for (const auto& d : a.shards) reports.push_back(book::add_shards(d, builder));
  for (const auto& f : a.teacher) reports.push_back(book::add_teacher_jsonl(f, builder));
  for (const auto& f : a.pgns) reports.push_back(book::add_pgn(f, builder));
  for (const auto& r : reports) book::print_report(r, std::cout);
  const book::OpeningBook book = builder.build();
  if (book.positions() == 0)
    throw CommandExit(1, "book build: no position qualified (max-plies " +
                             std::to_string(a.options.max_plies) + ", min-count " +
                             std::to_string(a.options.min_count) + "); nothing written");
  book.save(a.out);
  const book::BuildStats& s = builder.stats();
  std::cout << "book " << a.out << ": " << s.positions << " positions, " << s.moves
            << " moves (from " << s.used << " samples within " << a.options.max_plies << " plies; "
            << s.bad << " bad)\n";
}

void run_probe(const std::string& file, const std::string& fen) {
  const book::OpeningBook book = book::OpeningBook::load(file);
  Position pos;
  try {
    pos = fen.empty() ? Position() : Position::from_fen(fen);
  } catch (const FenError& e) {
    throw CommandExit(2, "book probe: bad --fen '" + fen + "': " + e.what());
  }
  const auto& moves = book.moves(pos);
  std::cout << "position " << book::book_key(pos) << "\n";
  if (moves.empty()) {
    std::cout << "not in the book (" << book.positions() << " positions)\n";
    return;
  }
  std::uint64_t total = 0;
  for (const auto& m : moves) total += m.weight;
  for (const auto& m : moves)
    std::cout << std::left << std::setw(7) << to_uci(m.move) << " " << std::setw(8)
              << to_san(pos, m.move) << " weight " << std::setw(10) << m.weight << " " << std::fixed
              << std::setprecision(1) << 100.0 * double(m.weight) / double(total) << "%\n";
}

}  // namespace

void add_book_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("book", "crazyhouse opening book: build one, or probe it");
  cmd->require_subcommand(1);

  auto a = std::make_shared<BuildArgs>();
  auto* build = cmd->add_subcommand(
      "build", "build a book from training shards, teacher JSONL or crazyhouse PGN");
  build->add_option("--out", a->out, "book file to write")->required();
  build->add_option("--from-shards", a->shards,
                    "directory of training shards (*.zhrec, from zhbot datagen); repeatable");
  build->add_option("--from-teacher", a->teacher,
                    "teacher JSON Lines file (.jsonl or .jsonl.gz); repeatable");
  build->add_option("--from-pgn", a->pgns, "crazyhouse PGN file; repeatable");
  build
      ->add_option("--max-plies", a->options.max_plies,
                   "only positions with fewer half-moves played")
      ->default_str(std::to_string(a->options.max_plies))
      ->check(CLI::Range(1, 200));
  build
      ->add_option("--min-count", a->options.min_count,
                   "leave out moves seen fewer times in a position")
      ->default_str(std::to_string(a->options.min_count))
      ->check(CLI::Range(1, 1000000));
  build->callback([a] { run_build(*a); });

  auto file = std::make_shared<std::string>();
  auto fen = std::make_shared<std::string>();
  auto* probe = cmd->add_subcommand("probe", "print the book's moves for a position");
  probe->add_option("--book", *file, "book file")->required();
  probe->add_option("--fen", *fen, "position (default: the start position)");
  probe->callback([file, fen] { run_probe(*file, *fen); });
}

}  // namespace zh::cli
