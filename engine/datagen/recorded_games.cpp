#include "engine/datagen/recorded_games.h"

#include <climits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_set>

#include "engine/chess/notation.h"
#include "engine/datagen/labelling.h"
#include "engine/datagen/line_source.h"

namespace zh::datagen {
namespace {

bool names_zhbot(const nlohmann::json& j, const char* side) {
  return j.contains(side) && j[side].is_string() &&
         j[side].get<std::string>().rfind("zhbot", 0) == 0;
}

// One line as a game; throws std::exception with the reason for a line that is not one.
RecordedGame parse_game(const std::string& line, GameResult& result) {
  const nlohmann::json j = nlohmann::json::parse(line);
  result = parse_result(j.at("result").get<std::string>());
  Position start;
  if (j.contains("opening") && !j["opening"].is_null())
    start = Position::from_fen(j["opening"].get<std::string>());
  RecordedGame g{Game(start)};
  std::istringstream moves(j.at("moves").get<std::string>());
  std::string text = start.fen();
  for (std::string uci; moves >> uci;) {
    const Move m = parse_uci(g.game.position(), uci);
    g.game.play(m);
    text += ' ' + to_uci(m);
  }
  if (g.game.moves().empty()) throw std::invalid_argument("no moves");
  g.result = result;
  g.zhbot_played = !(j.contains("white") && j.contains("black")) || names_zhbot(j, "white") ||
                   names_zhbot(j, "black");
  g.id = game_id_from_text(text);
  return g;
}

}  // namespace

RecordedGames read_recorded_games(const std::vector<std::filesystem::path>& files) {
  RecordedGames out;
  std::unordered_set<std::uint64_t> ids;
  for (const auto& file : files) {
    LineSource source(file);
    std::int64_t number = 0;
    for (std::string line; source.next(line);) {
      ++number;
      if (line.empty()) continue;
      ++out.lines;
      GameResult result = GameResult::kOngoing;
      try {
        RecordedGame g = parse_game(line, result);
        if (result == GameResult::kOngoing) {
          ++out.unfinished;
          continue;
        }
        if (!ids.insert(g.id).second) {
          ++out.repeated;
          continue;
        }
        out.games.push_back(std::move(g));
      } catch (const std::exception& e) {
        ++out.bad;
        if (out.examples.size() < 10)
          out.examples.push_back(file.string() + ":" + std::to_string(number) + ": " + e.what());
      }
    }
  }
  return out;
}

void print_report(const RecordedGames& g, std::ostream& out) {
  out << "recorded     " << g.games.size() << " games from " << g.lines << " lines; skipped "
      << g.unfinished << " unfinished, " << g.repeated << " read before, " << g.bad << " bad\n";
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
