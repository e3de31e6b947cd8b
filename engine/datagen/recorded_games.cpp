#include "engine/datagen/recorded_games.h"

#include <algorithm>
#include <climits>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include "engine/chess/notation.h"
#include "engine/chess/pgn_reader.h"
#include "engine/datagen/labelling.h"
#include "engine/datagen/line_source.h"
#include "engine/util/strings.h"

namespace zh::datagen {
namespace {

bool names_zhbot(const nlohmann::json& j, const char* side) {
  return j.contains(side) && j[side].is_string() &&
         j[side].get<std::string>().rfind("zhbot", 0) == 0;
}

// The game from `start` through `moves`, each read by `parse` in the position it is played in,
// with its id from the opening and the moves; throws std::exception for a move that is not
// legal, or for no moves.
template <typename ParseMove>
RecordedGame replay(const Position& start, const std::vector<std::string>& moves, GameResult result,
                    ParseMove parse) {
  RecordedGame g{Game(start)};
  std::string text = start.fen();
  for (const std::string& move : moves) {
    const Move m = parse(g.game.position(), move);
    g.game.play(m);
    text += ' ' + to_uci(m);
  }
  if (g.game.moves().empty()) throw std::invalid_argument("no moves");
  g.result = result;
  g.id = game_id_from_text(text);
  return g;
}

// One line as a game; throws std::exception with the reason for a line that is not one.
RecordedGame parse_game(const std::string& line, GameResult& result) {
  const nlohmann::json j = nlohmann::json::parse(line);
  result = parse_result(j.at("result").get<std::string>());
  Position start;
  if (j.contains("opening") && !j["opening"].is_null())
    start = Position::from_fen(j["opening"].get<std::string>());
  const std::vector<std::string> moves = split_words(j.at("moves").get<std::string>());
  RecordedGame g = replay(start, moves, result, [](const Position& pos, const std::string& uci) {
    return parse_uci(pos, uci);
  });
  g.zhbot_played = !(j.contains("white") && j.contains("black")) || names_zhbot(j, "white") ||
                   names_zhbot(j, "black");
  return g;
}

// A PGN game as a game; throws std::exception with the reason for one that cannot be replayed.
RecordedGame pgn_game(const PgnGameText& text, GameResult& result) {
  std::string result_text = text.result;
  if (auto r = text.tags.find("Result"); result_text.empty() && r != text.tags.end())
    result_text = r->second;
  result = parse_result(result_text);
  Position start;
  if (auto f = text.tags.find("FEN"); f != text.tags.end()) start = Position::from_fen(f->second);
  return replay(start, text.moves, result,
                [](const Position& pos, const std::string& san) { return parse_san(pos, san); });
}

// The files a path stands for: itself, or a folder's *.pgn and *.jsonl files in name order.
std::vector<std::filesystem::path> files_of(const std::filesystem::path& path) {
  if (!std::filesystem::is_directory(path)) return {path};
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
    const std::string ext = lower(entry.path().extension().string());
    if (entry.is_regular_file() && (ext == ".pgn" || ext == ".jsonl")) files.push_back(entry);
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Counts each game read into `out`: kept, unfinished, read before or bad (with where and why).
class Collector {
 public:
  explicit Collector(RecordedGames& out) : out_(out) {}
  // `parse` makes the game read at `where`, or throws why it is not one.
  template <typename Parse>
  void add(const std::string& where, Parse parse) {
    ++out_.lines;
    GameResult result = GameResult::kOngoing;
    try {
      RecordedGame g = parse(result);
      if (result == GameResult::kOngoing)
        ++out_.unfinished;
      else if (!ids_.insert(g.id).second)
        ++out_.repeated;
      else
        out_.games.push_back(std::move(g));
    } catch (const std::exception& e) {
      ++out_.bad;
      if (out_.examples.size() < 10) out_.examples.push_back(where + ": " + e.what());
    }
  }
  void other_variant() {
    ++out_.lines;
    ++out_.other_variant;
  }

 private:
  RecordedGames& out_;
  std::unordered_set<std::uint64_t> ids_;
};

void read_pgn(const std::filesystem::path& file, Collector& collect) {
  std::ifstream in(file);
  if (!in) throw FormatError("cannot read PGN file '" + file.string() + "'");
  PgnReader reader(in);
  while (auto text = reader.next()) {
    if (auto v = text->tags.find("Variant");
        v != text->tags.end() && lower(v->second) != "crazyhouse") {
      collect.other_variant();
      continue;
    }
    collect.add(file.string() + ":" + std::to_string(text->line),
                [&](GameResult& result) { return pgn_game(*text, result); });
  }
}

void read_match_record(const std::filesystem::path& file, Collector& collect) {
  LineSource source(file);
  std::int64_t number = 0;
  for (std::string line; source.next(line);) {
    ++number;
    if (line.empty()) continue;
    collect.add(file.string() + ":" + std::to_string(number),
                [&](GameResult& result) { return parse_game(line, result); });
  }
}

}  // namespace

RecordedGames read_recorded_games(const std::vector<std::filesystem::path>& paths) {
  RecordedGames out;
  Collector collect(out);
  for (const auto& path : paths) {
    if (!std::filesystem::exists(path))
      throw FormatError("recorded games: no such file or folder '" + path.string() + "'");
    for (const auto& file : files_of(path)) {
      if (lower(file.extension().string()) == ".pgn")
        read_pgn(file, collect);
      else
        read_match_record(file, collect);
    }
  }
  return out;
}

void print_report(const RecordedGames& g, std::ostream& out) {
  out << "recorded     " << g.games.size() << " games of " << g.lines << " read; skipped "
      << g.unfinished << " unfinished, " << g.repeated << " read before, " << g.other_variant
      << " of another variant, " << g.bad << " bad\n";
  for (const auto& e : g.examples) out << "  " << e << "\n";
}

PlayedGame label_recorded_game(UciTeacher& teacher, const RecordedGame& recorded,
                               const GameOptions& options, SeenPositions& seen,
                               const std::atomic<bool>& stop) {
  const auto& moves = recorded.game.moves();
  auto choose = [&](const Game&, const TeacherAnswer&, int ply) {
    return std::size_t(ply) < moves.size() ? moves[std::size_t(ply)] : Move();
  };
  GameOptions as_recorded = options;
  as_recorded.max_plies = INT_MAX;
  return play_labelled_game(teacher, recorded.id, as_recorded, seen, stop, choose,
                            recorded.zhbot_played ? kFlagOwnGame : 0,
                            {Game(recorded.game.start()), recorded.result});
}

}  // namespace zh::datagen
