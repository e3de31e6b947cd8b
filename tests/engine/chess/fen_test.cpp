#include <gtest/gtest.h>

#include <string>

#include "engine/chess/position.h"

namespace zh {
namespace {

TEST(Fen, StartPositionRoundTrips) {
  Position start;
  EXPECT_EQ(start.fen(), std::string(Position::kStartFen));
  EXPECT_EQ(Position::from_fen(start.fen()), start);
}

TEST(Fen, BracketAndNinthRankPocketsAreTheSamePosition) {
  Position a = Position::from_fen("2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1");
  Position b = Position::from_fen("2k5/8/8/8/8/8/8/4K3/Qn w - - 0 1");
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.key(), b.key());
  EXPECT_EQ(a.pocket(kWhite, kQueen), 1);
  EXPECT_EQ(a.pocket(kBlack, kKnight), 1);
  EXPECT_EQ(a.fen(), "2k5/8/8/8/8/8/8/4K3/Qn w - - 0 1");
}

TEST(Fen, PocketLettersInAnyOrderAreWrittenInLichessOrder) {
  Position p = Position::from_fen("2k5/8/8/8/8/8/8/4K3[qQpRnNbBP] b - - 3 20");
  EXPECT_EQ(p.fen(), "2k5/8/8/8/8/8/8/4K3/PNBRQpnbq b - - 3 20");
}

TEST(Fen, MissingPocketMeansEmptyPockets) {
  Position p = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
  for (Color c : {kWhite, kBlack}) EXPECT_TRUE(p.pocket_empty(c));
  EXPECT_EQ(p.fen(), "r3k2r/8/8/8/8/8/8/R3K2R/ w Qkq - 0 1");
}

TEST(Fen, MissingCountersAreTolerated) {
  Position p = Position::from_fen("4k3/8/8/8/8/8/8/4K3[] w -");
  EXPECT_EQ(p.halfmove_clock(), 0);
  EXPECT_EQ(p.fullmove_number(), 1);
  Position q = Position::from_fen("4k3/8/8/8/8/8/8/4K3/ b");
  EXPECT_EQ(q.side_to_move(), kBlack);
}

TEST(Fen, PromotedMarksRoundTripAndChangeTheKey) {
  const std::string fen = "4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - - 0 1";
  Position p = Position::from_fen(fen);
  EXPECT_TRUE(p.promoted() & square_bb(make_square(1, 6)));
  EXPECT_EQ(p.fen(), fen);
  Position plain = Position::from_fen("4k3/1Q6/8/8/4b3/8/Kpp5/8/ b - - 0 1");
  EXPECT_NE(p.key(), plain.key());
}

TEST(Fen, EnPassantSquareKeptOnlyWhenACaptureIsLegal) {
  Position legal =
      Position::from_fen("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR[] w KQkq d6 0 3");
  EXPECT_EQ(legal.ep_square(), make_square(3, 5));
  EXPECT_EQ(legal.fen(), "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR/ w KQkq d6 0 3");
  // No white pawn next to d5: the square is dropped, as lichess writes it.
  Position none =
      Position::from_fen("rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR[] w KQkq d6 0 2");
  EXPECT_EQ(none.ep_square(), kNoSquare);
  // Rank pin: capturing would expose the king on the fifth rank.
  Position pinned = Position::from_fen("8/8/8/K2pP2r/8/8/8/7k[] w - d6 0 1");
  EXPECT_EQ(pinned.ep_square(), kNoSquare);
}

TEST(Fen, CastlingSubsetsRoundTrip) {
  for (const char* rights : {"K", "Q", "k", "q", "Kq", "Qk", "KQkq", "-"}) {
    std::string fen = std::string("r3k2r/8/8/8/8/8/8/R3K2R/ w ") + rights + " - 0 1";
    EXPECT_EQ(Position::from_fen(fen).fen(), fen);
  }
}

TEST(Fen, CastlingRightsWithoutTheirRookAreDropped) {
  Position p = Position::from_fen("r3k3/8/8/8/8/8/8/4K2R/ w KQkq - 0 1");
  EXPECT_EQ(p.castling_rights(), unsigned(kWhiteOO | kBlackOOO));
}

TEST(Fen, PerftPositionsRoundTripThroughTheLichessForm) {
  for (const char* fen : {
           "r2q1b1r/p2k1Ppp/2p2p2/4p3/P2nP2n/3P1PRP/1PPB1K1q~/RN1Q1B2/Npb w - - 40 21",
           "2q1k1nr/B3bbrb/8/8/8/8/3qN1RB/1Q2KB1R/RRRQQQQQQrrrqqq w Kk - 0 11",
           "b3kb2/pn1ppp1Q~/pPqr2p1/2p5/7R/R5P1/P1PP1PBP/1NBQ2NK/PNR w - - 4 6",
       }) {
    Position p = Position::from_fen(fen);
    EXPECT_TRUE(p.is_consistent());
    Position again = Position::from_fen(p.fen());
    EXPECT_EQ(again, p);
    EXPECT_EQ(again.key(), p.key());
  }
}

struct BadFen {
  const char* fen;
  const char* message_part;
};

class MalformedFenTest : public testing::TestWithParam<BadFen> {};

TEST_P(MalformedFenTest, IsRejectedWithAClearMessage) {
  const BadFen& bad = GetParam();
  try {
    Position::from_fen(bad.fen);
    FAIL() << "accepted: " << bad.fen;
  } catch (const FenError& e) {
    EXPECT_NE(std::string(e.what()).find(bad.message_part), std::string::npos)
        << "message: " << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Messages, MalformedFenTest,
    testing::Values(
        BadFen{"", "empty"}, BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"},
        BadFen{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "rank 6"},
        BadFen{"rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "7 squares"},
        BadFen{"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "unexpected character 'x'"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x - - 0 1", "side to move is 'x'"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "side to move is missing"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQz - 0 1", "castling field"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - e5 0 1", "en passant"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - x 1", "halfmove clock"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1", "white has 0 kings"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qx] w - - 0 1", "pocket"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q w - - 0 1", "closing ']'"},
        BadFen{"Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "pawn cannot stand"},
        BadFen{"4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "not to move is in check"},
        BadFen{"~nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "'~' must follow"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 7", "7 fields"}));

}  // namespace
}  // namespace zh
