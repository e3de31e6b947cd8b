#include "engine/chess/game.h"

#include <gtest/gtest.h>

#include "engine/chess/notation.h"

namespace zh {
namespace {

TEST(GameEnd, DropMateIsCheckmate) {
  Game g(Position::from_fen("6k1/5ppp/8/8/8/8/8/4K3[R] w - - 0 1"));
  g.play_uci("R@e8");
  EXPECT_EQ(g.outcome().result, GameResult::kWhiteWins);
  EXPECT_EQ(g.outcome().termination, Termination::kCheckmate);
}

TEST(GameEnd, ADropThatBlocksPreventsMate) {
  // Back-rank check by a rook: with a knight in hand black blocks, so it is not mate.
  Position p = Position::from_fen("4R1k1/5ppp/8/8/8/8/8/4K3[n] b - - 0 1");
  EXPECT_TRUE(p.in_check());
  EXPECT_FALSE(p.is_checkmate());
  // The only answer is the drop between rook and king (the king cannot step to h8 behind it).
  ASSERT_EQ(p.count_legal_moves(), 1);
  EXPECT_EQ(p.legal_moves()[0], Move::drop(kKnight, make_square(5, 7)));
  Position empty_hand = Position::from_fen("4R1k1/5ppp/8/8/8/8/8/4K3[] b - - 0 1");
  EXPECT_TRUE(empty_hand.is_checkmate());
}

TEST(GameEnd, ContactCheckCannotBeBlockedByADrop) {
  // From the lichess tests: a pawn check next to the king is mate despite a full pocket.
  Position p =
      Position::from_fen("3Nkb1r/1pQP1ppp/4p3/3N4/N5N1/6B1/PPPPBPPP/R1B2RK1[Qrpp] b - - 0 25");
  EXPECT_TRUE(p.is_checkmate());
}

TEST(GameEnd, NoStalemateWithAPieceInHand) {
  Position stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8[] b - - 0 1");
  EXPECT_TRUE(stalemate.is_stalemate());
  EXPECT_EQ(Game(stalemate).outcome().result, GameResult::kDraw);
  Position in_hand = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8[n] b - - 0 1");
  EXPECT_FALSE(in_hand.is_stalemate());
  EXPECT_EQ(in_hand.count_legal_moves(), 61);
}

TEST(GameEnd, BareKingsAreNotADraw) {
  Game g(Position::from_fen("k7/8/8/8/8/8/8/K7[] w - - 0 1"));
  EXPECT_EQ(g.outcome().result, GameResult::kOngoing);
}

TEST(GameEnd, NoFiftyMoveRule) {
  Game g(Position::from_fen("k7/8/8/8/8/8/8/K6R[] w - - 150 80"));
  EXPECT_EQ(g.position().halfmove_clock(), 100);  // clamped like lichess, yet no draw
  EXPECT_EQ(g.outcome().result, GameResult::kOngoing);
}

TEST(Repetition, ThreefoldIsClaimableFivefoldIsADraw) {
  Game g;
  const char* shuffle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
  for (int round = 0; round < 4; ++round) {
    EXPECT_EQ(g.repetitions(), round);
    EXPECT_EQ(g.threefold_claimable(), round >= 2);
    EXPECT_EQ(g.outcome().result, GameResult::kOngoing);
    for (const char* m : shuffle) g.play_uci(m);
  }
  EXPECT_EQ(g.repetitions(), 4);
  EXPECT_EQ(g.outcome().result, GameResult::kDraw);
  EXPECT_EQ(g.outcome().termination, Termination::kFivefoldRepetition);
}

TEST(Repetition, PocketsDistinguishPositions) {
  // Same board, but a capture on the way changed the pockets: not a repetition.
  Game g(Position::from_fen("4k3/8/8/3p4/8/2N5/8/4K3[] w - - 0 1"));
  for (const char* m : {"c3d5", "e8d8", "d5c3", "d8e8"}) g.play_uci(m);
  EXPECT_EQ(g.repetitions(), 0);
  for (const char* m : {"c3d5", "e8d8", "d5c3", "d8e8"}) g.play_uci(m);
  EXPECT_EQ(g.repetitions(), 1);
}

TEST(Repetition, CastlingEndsTheHistory) {
  Game g(Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R[] w KQkq - 0 1"));
  g.play_uci("e1g1");
  EXPECT_EQ(g.position().plies_since_irreversible(), 0);
}

TEST(Game, RejectsIllegalMovesAndKeepsState) {
  Game g;
  EXPECT_THROW(g.play_uci("e2e5"), MoveError);
  EXPECT_THROW(g.play(Move::drop(kQueen, make_square(4, 3))), MoveError);
  EXPECT_TRUE(g.moves().empty());
  EXPECT_EQ(g.position(), Position());
}

}  // namespace
}  // namespace zh
