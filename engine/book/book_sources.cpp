#include "engine/book/book_sources.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "engine/chess/notation.h"
#include "engine/chess/pgn_reader.h"
#include "engine/datagen/line_source.h"
#include "engine/datagen/shard_io.h"
#include "engine/nn/policy_map.h"
#include "engine/util/strings.h"

namespace zh::book {

namespace {

constexpr std::size_t kMaxExamples = 10;

// The mover's score from a result seen from White: 1 win, 0.5 draw, 0 loss; none if unknown.
std::optional<double> mover_score(const std::string& result, Color mover) {
  double white;
  if (result == "1-0")
    white = 1;
  else if (result == "0-1")
    white = 0;
  else if (result == "1/2-1/2")
    white = 0.5;
  else
    return std::nullopt;
  return mover == kWhite ? white : 1 - white;
}

// Half-moves played before `pos` when its game started from the standard position.
int ply_of(const Position& pos) {
  return 2 * (pos.fullmove_number() - 1) + (pos.side_to_move() == kBlack ? 1 : 0);
}

}  // namespace

void SourceReport::problem(const std::string& where, const std::string& what) {
  ++bad;
  if (examples.size() < kMaxExamples) examples.push_back(where + ": " + what);
}

SourceReport add_shards(const std::filesystem::path& dir, BookBuilder& builder) {
  SourceReport report;
  report.source = dir.string();
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_regular_file(dir))
    files.push_back(dir);
  else if (std::filesystem::is_directory(dir))
    files = datagen::list_shards(dir);
  else
    throw BookError("no such shard directory or file: " + dir.string());
  if (files.empty())
    throw BookError("no shards (*" + std::string(datagen::kShardSuffix) + ") in " + dir.string() +
                    " (teacher JSON Lines files go to --from-teacher)");
  for (const auto& file : files) {
    const std::vector<datagen::Record> records = datagen::read_shard(file);
    for (std::size_t i = 0; i < records.size(); ++i) {
      const datagen::Record& r = records[i];
      ++report.items;
      if (int(r.ply) >= builder.options().max_plies) {
        ++report.skipped;
        continue;
      }
      const std::string where = file.filename().string() + " record " + std::to_string(i);
      const std::string fen = datagen::fen_of(r);
      Position pos;
      try {
        pos = Position::from_fen(fen);
      } catch (const FenError& e) {
        report.problem(where, "bad FEN '" + fen + "': " + e.what());
        builder.count_bad();
        continue;
      }
      const Move m = policy_move(r.policy_index[0], pos.side_to_move());
      if (m.is_null() || !pos.is_legal(m)) {
        report.problem(where, "the teacher's move (policy index " +
                                  std::to_string(r.policy_index[0]) + ") is not legal in " + fen);
        builder.count_bad();
        continue;
      }
      const double score = r.result == datagen::kWin ? 1.0 : r.result == datagen::kLoss ? 0.0 : 0.5;
      builder.add(pos, int(r.ply), m, score);
    }
  }
  return report;
}

SourceReport add_teacher_jsonl(const std::filesystem::path& file, BookBuilder& builder) {
  SourceReport report;
  report.source = file.string();
  datagen::LineSource lines(file);
  std::string line;
  while (lines.next(line)) {
    ++report.items;
    if (trim(line).empty()) continue;
    const std::string where = "line " + std::to_string(report.items);
    std::string fen, best, result;
    int ply = 0;
    try {
      const nlohmann::json j = nlohmann::json::parse(line);
      ply = j.at("ply").get<int>();
      if (ply >= builder.options().max_plies) {
        ++report.skipped;
        continue;
      }
      fen = j.at("fen").get<std::string>();
      best = j.at("best").get<std::string>();
      if (j.contains("result") && j["result"].is_string()) result = j["result"].get<std::string>();
    } catch (const std::exception& e) {
      report.problem(where, std::string("unreadable record: ") + e.what());
      builder.count_bad();
      continue;
    }
    try {
      const Position pos = Position::from_fen(fen);
      const Move m = parse_uci(pos, best);
      builder.add(pos, ply, m, mover_score(result, pos.side_to_move()));
    } catch (const std::exception& e) {  // FenError, MoveError
      report.problem(where, e.what());
      builder.count_bad();
    }
  }
  return report;
}

SourceReport add_pgn(const std::filesystem::path& file, BookBuilder& builder) {
  SourceReport report;
  report.source = file.string();
  std::ifstream in(file);
  if (!in) throw BookError("cannot read PGN file '" + file.string() + "'");
  PgnReader reader(in);
  while (auto game = reader.next()) {
    ++report.items;
    const std::string where =
        "game " + std::to_string(report.items) + " (line " + std::to_string(game->line) + ")";
    if (auto v = game->tags.find("Variant");
        v != game->tags.end() && lower(v->second) != "crazyhouse") {
      ++report.skipped;
      continue;
    }
    Position pos;
    int ply = 0;
    if (auto f = game->tags.find("FEN"); f != game->tags.end()) {
      try {
        pos = Position::from_fen(f->second);
      } catch (const FenError& e) {
        report.problem(where, "bad FEN tag '" + f->second + "': " + e.what());
        builder.count_bad();
        continue;
      }
      ply = ply_of(pos);
    }
    std::string result = game->result;
    if (auto r = game->tags.find("Result"); result.empty() && r != game->tags.end())
      result = r->second;
    for (const std::string& san : game->moves) {
      if (ply >= builder.options().max_plies) break;
      Move m;
      try {
        m = parse_san(pos, san);
      } catch (const MoveError& e) {
        // The rest of the game cannot be replayed; what came before it is kept.
        report.problem(where, "move " + std::to_string(ply / 2 + 1) +
                                  (pos.side_to_move() == kWhite ? ". " : "... ") + san + ": " +
                                  e.what());
        builder.count_bad();
        break;
      }
      builder.add(pos, ply, m, mover_score(result, pos.side_to_move()));
      pos.do_move(m);
      ++ply;
    }
  }
  return report;
}

void print_report(const SourceReport& r, std::ostream& out) {
  out << r.source << ": " << r.items << " read, " << r.skipped << " skipped, " << r.bad << " bad\n";
  for (const auto& e : r.examples) out << "  " << e << "\n";
}

}  // namespace zh::book
