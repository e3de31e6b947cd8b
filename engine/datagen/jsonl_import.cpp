#include "engine/datagen/jsonl_import.h"

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "engine/chess/notation.h"
#include "engine/datagen/labelling.h"
#include "engine/datagen/line_source.h"

namespace zh::datagen {
namespace {

struct PendingGame {
  std::string id;
  std::vector<Record> records;
  std::unordered_map<std::uint64_t, int> occurrences;  // position key -> times seen
};

}  // namespace

ImportReport import_jsonl(const std::filesystem::path& file, ShardWriter& writer,
                          std::ostream& log) {
  ImportReport report;
  LineSource source(file);
  PendingGame game;
  auto flush = [&] {
    if (!game.records.empty()) {
      writer.add_game(game.records);
      report.records += std::int64_t(game.records.size());
      ++report.games;
    }
    game = PendingGame{};
  };
  auto bad = [&](std::int64_t& counter, const std::string& why) {
    ++counter;
    if (report.examples.size() < 10)
      report.examples.push_back("line " + std::to_string(report.lines) + ": " + why);
  };

  std::string line;
  while (source.next(line)) {
    ++report.lines;
    if (line.empty()) continue;
    nlohmann::json j;
    std::string id, fen, best, result_text;
    int ply = 0, cp = 0, mate = 0;
    try {
      j = nlohmann::json::parse(line);
      id = j.at("g").get<std::string>();
      ply = j.at("ply").get<int>();
      fen = j.at("fen").get<std::string>();
      best = j.at("best").get<std::string>();
      result_text = j.at("result").get<std::string>();
      if (j.contains("mate") && !j["mate"].is_null()) mate = j["mate"].get<int>();
      if (j.contains("cp") && !j["cp"].is_null()) cp = j["cp"].get<int>();
      if (ply < 0) throw std::out_of_range("negative ply");
    } catch (const std::exception& e) {
      bad(report.bad_json, std::string("unreadable record: ") + e.what());
      continue;
    }
    const GameResult result = parse_result(result_text);
    if (result == GameResult::kOngoing) {
      bad(report.bad_result, "result '" + result_text + "' is not 1-0, 0-1 or 1/2-1/2");
      continue;
    }
    Position pos;
    try {
      pos = Position::from_fen(fen);
    } catch (const FenError& e) {
      bad(report.bad_fen, "FEN '" + fen + "': " + e.what());
      continue;
    }
    Move move;
    try {
      move = parse_uci(pos, best);
    } catch (const MoveError& e) {
      bad(report.illegal_move, "move '" + best + "' in " + fen + ": " + e.what());
      continue;
    }
    if (id != game.id) {
      flush();
      game.id = id;
    }
    const int repetitions = game.occurrences[pos.key()]++;
    const TeacherLine teacher_line{move, cp, mate};
    Record r = make_record(EvalInput{pos, repetitions}, ply, game_id_from_text(id),
                           {&teacher_line, 1}, 0.0f);
    set_result(r, pos.side_to_move(), result);
    game.records.push_back(r);
    if (report.lines % 200000 == 0)
      log << "import: " << report.lines << " lines, " << report.records << " records\n"
          << std::flush;
  }
  flush();
  return report;
}

void print_report(const ImportReport& r, std::ostream& out) {
  out << "lines        " << r.lines << "\n"
      << "records      " << r.records << " from " << r.games << " games\n"
      << "bad lines    " << r.bad() << " (unreadable " << r.bad_json << ", bad FEN " << r.bad_fen
      << ", illegal move " << r.illegal_move << ", bad result " << r.bad_result << ")\n";
  for (const auto& e : r.examples) out << "  " << e << "\n";
}

}  // namespace zh::datagen
