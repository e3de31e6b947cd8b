#include <gtest/gtest.h>

#include "engine/chess/game.h"
#include "engine/chess/notation.h"

namespace zh {
namespace {

Position after(const char* fen, std::initializer_list<const char*> moves) {
  Game g(Position::from_fen(fen));
  for (const char* m : moves) g.play_uci(m);
  return g.position();
}

TEST(DoMove, CaptureGoesToTheCapturersPocketWithColourFlipped) {
  Position p = after(Position::kStartFen.data(), {"e2e4", "d7d5", "e4d5"});
  EXPECT_EQ(p.pocket(kWhite, kPawn), 1);
  EXPECT_EQ(p.pocket(kBlack, kPawn), 0);
  EXPECT_EQ(p.halfmove_clock(), 0);
  EXPECT_TRUE(p.is_consistent());
}

TEST(DoMove, CapturedPromotedPieceGoesBackAsAPawn) {
  Position p = after("4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - - 0 1", {"e4b7"});
  EXPECT_EQ(p.pocket(kBlack, kPawn), 1);
  EXPECT_EQ(p.pocket(kBlack, kQueen), 0);
  EXPECT_EQ(p.promoted(), 0u);
  EXPECT_TRUE(p.is_consistent());
}

TEST(DoMove, PromotedMarkFollowsThePiece) {
  Position p = after("4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1", {"b7b8q", "e8e7", "b8b4"});
  EXPECT_EQ(p.promoted(), square_bb(make_square(1, 3)));
  EXPECT_EQ(p.fen(), "8/4k3/8/8/1Q~6/8/8/4K3/ b - - 2 2");
  EXPECT_TRUE(p.is_consistent());
}

TEST(DoMove, DroppedRookNeverGainsCastlingRights) {
  Position p = Position::from_fen("4k3/8/8/8/8/8/8/4K3[RPrp] w - - 0 1");
  p.do_move(parse_uci(p, "R@h1"));
  EXPECT_EQ(p.castling_rights(), 0u);
  p.do_move(parse_uci(p, "e8d8"));
  for (Move m : p.legal_moves()) EXPECT_FALSE(m.is_castling());
}

TEST(DoMove, HalfmoveClockRules) {
  Position p = Position::from_fen("4k3/8/8/8/8/8/8/4K3[NPnp] w - - 5 10");
  p.do_move(parse_uci(p, "N@c3"));  // a piece drop counts on
  EXPECT_EQ(p.halfmove_clock(), 6);
  p.do_move(parse_uci(p, "P@e5"));  // a pawn drop resets
  EXPECT_EQ(p.halfmove_clock(), 0);
  EXPECT_EQ(p.fullmove_number(), 11);
}

TEST(DoMove, DropNeverCreatesAnEnPassantSquareButADoubleStepDoes) {
  Position p = Position::from_fen("4k3/8/8/3p4/8/8/8/4K3[P] w - - 0 1");
  p.do_move(parse_uci(p, "P@e2"));
  EXPECT_EQ(p.ep_square(), kNoSquare);
  p.do_move(parse_uci(p, "d5d4"));
  p.do_move(parse_uci(p, "e2e4"));  // the dropped pawn may still step twice
  EXPECT_EQ(p.ep_square(), make_square(4, 2));
  EXPECT_TRUE(p.legal_moves().contains(Move::en_passant(make_square(3, 3), make_square(4, 2))));
}

TEST(DoMove, IncrementalKeyMatchesAFreshKeyAlongRandomGames) {
  // Deterministic pseudo-random games exercise captures, drops, promotions and castling.
  std::uint64_t seed = 12345;
  for (int game = 0; game < 40; ++game) {
    Game g;
    for (int ply = 0; ply < 200; ++ply) {
      MoveList moves = g.position().legal_moves();
      if (moves.empty()) break;
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      g.play(moves[int((seed >> 33) % std::uint64_t(moves.size()))]);
      ASSERT_TRUE(g.position().is_consistent()) << g.position().fen();
      ASSERT_EQ(Position::from_fen(g.position().fen()).key(), g.position().key())
          << g.position().fen();
    }
  }
}

TEST(Attacks, GivesCheckAndIsCapture) {
  Position p =
      Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR[N] w KQkq - 0 1");
  Move bxf7 = parse_uci(p, "c4f7");
  EXPECT_TRUE(p.is_capture(bxf7));
  EXPECT_TRUE(p.gives_check(bxf7));
  Move drop = parse_uci(p, "N@d6");
  EXPECT_FALSE(p.is_capture(drop));
  EXPECT_TRUE(p.gives_check(drop));
}

}  // namespace
}  // namespace zh
