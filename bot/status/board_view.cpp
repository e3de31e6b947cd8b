#include "bot/status/board_view.h"

#include "engine/chess/notation.h"

namespace zh::bot {

namespace {

constexpr char kPieceLetters[] = "pnbrq";  // PieceType order kPawn..kQueen

std::string pocket_text(const Position& pos, Color color) {
  std::string out;
  for (int pt = kQueen; pt >= kPawn; --pt) {
    const char letter = color == kWhite ? char(kPieceLetters[pt] - 'a' + 'A') : kPieceLetters[pt];
    out.append(std::size_t(pos.pocket(color, PieceType(pt))), letter);
  }
  return out;
}

}  // namespace

BoardView board_view(const Game& game, int recent) {
  const Position& pos = game.position();
  BoardView v;
  v.fen = pos.fen();
  v.side_to_move = pos.side_to_move() == kWhite ? "white" : "black";
  v.pocket_white = pocket_text(pos, kWhite);
  v.pocket_black = pocket_text(pos, kBlack);
  const std::vector<Move>& moves = game.moves();
  v.plies = int(moves.size());
  if (moves.empty()) return v;
  v.last_move = to_uci(moves.back());
  const std::size_t first = moves.size() > std::size_t(recent) ? moves.size() - recent : 0;
  Position replay = game.start();
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (i >= first) v.recent_san.push_back(to_san(replay, moves[i]));
    replay.do_move(moves[i]);
  }
  return v;
}

}  // namespace zh::bot
