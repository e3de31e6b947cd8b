#include "bot/status/board_view.h"

#include <gtest/gtest.h>

#include "engine/chess/notation.h"

namespace zh::bot {
namespace {

Game play(const std::string& fen, const std::vector<std::string>& uci) {
  Game game(Position::from_fen(fen));
  for (const auto& m : uci) game.play(parse_uci(game.position(), m));
  return game;
}

TEST(BoardView, StartPositionHasEmptyPocketsAndNoLastMove) {
  const BoardView v = board_view(Game());
  EXPECT_EQ(v.fen, Position().fen());
  EXPECT_EQ(v.side_to_move, "white");
  EXPECT_EQ(v.pocket_white, "");
  EXPECT_EQ(v.pocket_black, "");
  EXPECT_EQ(v.last_move, "");
  EXPECT_TRUE(v.recent_san.empty());
  EXPECT_EQ(v.plies, 0);
}

TEST(BoardView, CapturesFillPocketsAndADropIsTheLastMove) {
  // 1. e4 d5 2. exd5 Qxd5: each side has a pawn in hand; 3. P@e6 drops it.
  const Game game =
      play(std::string(Position::kStartFen), {"e2e4", "d7d5", "e4d5", "d8d5", "P@e6"});
  const BoardView v = board_view(game);
  EXPECT_EQ(v.pocket_white, "");
  EXPECT_EQ(v.pocket_black, "p");
  EXPECT_EQ(v.last_move, "P@e6");
  EXPECT_EQ(v.side_to_move, "black");
  EXPECT_EQ(v.plies, 5);
  EXPECT_EQ(v.recent_san, (std::vector<std::string>{"e4", "d5", "exd5", "Qxd5", "P@e6"}));
  EXPECT_NE(v.fen.find("/p "), std::string::npos) << v.fen;  // the pocket as the ninth rank
}

TEST(BoardView, APromotedPieceCapturedGoesToThePocketAsAPawn) {
  // White promotes on b8 (a queen marked promoted), Black's rook takes it: Black holds a pawn,
  // not a queen. White already holds a knight and a bishop, Black a rook.
  const Game game = play("r3k3/1P6/8/8/8/8/8/4K3/NBr w - - 0 1", {"b7b8q", "a8b8"});
  const BoardView v = board_view(game);
  EXPECT_EQ(v.pocket_white, "BN");
  EXPECT_EQ(v.pocket_black, "rp");
  EXPECT_EQ(v.recent_san, (std::vector<std::string>{"b8=Q+", "Rxb8"}));
  EXPECT_EQ(v.last_move, "a8b8");
}

TEST(BoardView, OnlyTheLastFewPliesAreKept) {
  const Game game = play(std::string(Position::kStartFen),
                         {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8", "e2e4"});
  const BoardView v = board_view(game, 3);
  EXPECT_EQ(v.recent_san, (std::vector<std::string>{"Ng1", "Ng8", "e4"}));
  EXPECT_EQ(v.plies, 9);
}

TEST(BoardView, APromotedPieceOnTheBoardIsMarkedInTheFen) {
  const Game game = play("4k3/1P6/8/8/8/8/8/4K3/ w - - 0 1", {"b7b8n"});
  EXPECT_NE(board_view(game).fen.find("N~"), std::string::npos) << board_view(game).fen;
}

}  // namespace
}  // namespace zh::bot
