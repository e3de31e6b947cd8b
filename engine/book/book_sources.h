#pragma once
// Where book moves come from, each fed to a BookBuilder:
//  - training shards written by `zhbot datagen` (training/README.md): the position's FEN, the
//    teacher's move (policy slot 0) and the game's result for the side to move;
//  - teacher JSON Lines (.jsonl or .jsonl.gz, the format of the starter teacher set and of
//    `zhbot datagen --import`): fen, best, ply, result;
//  - crazyhouse PGN (SAN with drops; a FEN tag starts from that position; games of another
//    variant are skipped).
// A bad record or game is counted and the first few are named in the report; it never stops
// the build. An unreadable file throws (BookError or datagen::FormatError) naming it.

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "engine/book/book_builder.h"

namespace zh::book {

struct SourceReport {
  std::string source;
  std::int64_t items = 0;  // records, lines or games read
  std::int64_t bad = 0;
  std::int64_t skipped = 0;           // games of another variant, records after max_plies
  std::vector<std::string> examples;  // the first few problems, with where they were
  void problem(const std::string& where, const std::string& what);
};

// Every *.zhrec file under `dir` (or the one file `dir` names).
SourceReport add_shards(const std::filesystem::path& dir, BookBuilder& builder);
SourceReport add_teacher_jsonl(const std::filesystem::path& file, BookBuilder& builder);
SourceReport add_pgn(const std::filesystem::path& file, BookBuilder& builder);

void print_report(const SourceReport& report, std::ostream& out);

}  // namespace zh::book
