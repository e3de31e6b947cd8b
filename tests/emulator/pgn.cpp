#include "tests/emulator/pgn.h"

#include <algorithm>
#include <sstream>

namespace zh::emulator {
namespace {

std::string termination_text(GameStatus s) {
  switch (s) {
    case GameStatus::kOutOfTime:
      return "Time forfeit";
    case GameStatus::kTimeout:
    case GameStatus::kNoStart:
    case GameStatus::kAborted:
      return "Abandoned";
    case GameStatus::kCreated:
    case GameStatus::kStarted:
      return "Unterminated";
    default:
      return "Normal";
  }
}

}  // namespace

std::string result_text(const EmuGame& game) {
  if (!game.finished() || game.status() == GameStatus::kAborted) return "*";
  if (!game.winner()) return "1/2-1/2";
  return *game.winner() == kWhite ? "1-0" : "0-1";
}

std::vector<std::string> san_moves(const EmuGame& game, int hidden_plies) {
  std::vector<std::string> out;
  Position pos = game.rules().start();
  const auto& moves = game.rules().moves();
  const int shown = std::max(0, int(moves.size()) - hidden_plies);
  for (int i = 0; i < shown; ++i) {
    out.push_back(to_san(pos, moves[i]));
    pos.do_move(moves[i]);
  }
  return out;
}

std::string game_pgn(const EmuGame& game, const std::string& date, int hidden_plies) {
  const auto& s = game.setup();
  const std::string result = result_text(game);
  std::ostringstream out;
  auto tag = [&](const char* name, const std::string& value) {
    out << '[' << name << " \"" << value << "\"]\n";
  };
  tag("Event", std::string(s.rated ? "Rated" : "Casual") + " crazyhouse game");
  tag("Site", "https://lichess.org/" + s.id);
  tag("Date", date);
  tag("White", s.white.name);
  tag("Black", s.black.name);
  tag("Result", result);
  tag("WhiteElo", std::to_string(s.white.rating));
  tag("BlackElo", std::to_string(s.black.rating));
  if (!s.white.title.empty()) tag("WhiteTitle", s.white.title);
  if (!s.black.title.empty()) tag("BlackTitle", s.black.title);
  tag("Variant", "Crazyhouse");
  tag("TimeControl", s.has_clock ? std::to_string(s.initial_ms / 1000) + "+" +
                                       std::to_string(s.increment_ms / 1000)
                                 : "-");
  tag("Termination", termination_text(game.status()));
  out << '\n';

  // Movetext wrapped at 80 columns, SAN from the project's notation code.
  std::string line;
  auto emit = [&](const std::string& token) {
    if (!line.empty() && line.size() + 1 + token.size() > 80) {
      out << line << '\n';
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += token;
  };
  int ply = 0;
  for (const std::string& san : san_moves(game, hidden_plies)) {
    if (ply % 2 == 0) emit(std::to_string(ply / 2 + 1) + ".");
    emit(san);
    ++ply;
  }
  emit(result);
  out << line << "\n";
  return out.str();
}

}  // namespace zh::emulator
