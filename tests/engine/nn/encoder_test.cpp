#include "engine/nn/encoder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "engine/chess/game.h"
#include "nn_test_util.h"

namespace zh {
namespace {

// CrazyAra's plane statistic: sum, max, sum of index * value, first index of the max.
struct Fingerprint {
  double sum = 0, max = 0, key = 0;
  int argmax = -1;
};

Fingerprint fingerprint(const std::vector<float>& planes) {
  Fingerprint f;
  f.max = planes[0];
  f.argmax = 0;
  for (std::size_t i = 0; i < planes.size(); ++i) {
    f.sum += planes[i];
    f.key += static_cast<double>(i) * planes[i];
    if (planes[i] > f.max) f.max = planes[i], f.argmax = static_cast<int>(i);
  }
  return f;
}

std::vector<float> encode(const Position& pos, int repetitions = 0, bool normalize = true) {
  std::vector<float> planes(kInputSize, -7.0f);  // garbage: the encoder must overwrite all
  encode_position(EvalInput{pos, repetitions}, planes, normalize);
  return planes;
}

float at(const std::vector<float>& planes, int plane, Square s) { return planes[plane * 64 + s]; }

bool plane_is(const std::vector<float>& planes, int plane, float value) {
  for (int s = 0; s < 64; ++s)
    if (at(planes, plane, Square(s)) != value) return false;
  return true;
}

// The set bits of a plane as a bitboard (values other than 0/1 fail the caller's check).
Bitboard plane_bits(const std::vector<float>& planes, int plane) {
  Bitboard bb = 0;
  for (int s = 0; s < 64; ++s)
    if (at(planes, plane, Square(s)) != 0.0f) bb |= square_bb(Square(s));
  return bb;
}

Square sq(const char* name) { return make_square(name[0] - 'a', name[1] - '1'); }

// The figures of CrazyAra's own "Input Planes V1" test (docs/network-io.md).
TEST(EncoderTest, StartPositionMatchesCrazyAraFingerprint) {
  const Fingerprint f = fingerprint(encode(Position(), 0, /*normalize=*/false));
  EXPECT_DOUBLE_EQ(f.sum, 416);
  EXPECT_DOUBLE_EQ(f.max, 1);
  EXPECT_DOUBLE_EQ(f.key, 746928);
  EXPECT_EQ(f.argmax, 8);
}

TEST(EncoderTest, CrazyAraTestPositionMatchesItsFingerprints) {
  Game game(
      Position::from_fen("5r2/ppp2pkp/3p4/2bP4/2Pnp1N1/3P2pP/PP2n1P1/R2Q1R1K[PBRQnbb] w - - 0 28"));
  for (const char* m : {"Q@f6", "g7g8", "R@h8"}) game.play_uci(m);
  const Fingerprint raw = fingerprint(encode(game.position(), 0, false));
  EXPECT_DOUBLE_EQ(raw.sum, 2395);
  EXPECT_DOUBLE_EQ(raw.max, 29);
  EXPECT_DOUBLE_EQ(raw.key, 4170903);
  EXPECT_EQ(raw.argmax, 1792);
  const Fingerprint norm = fingerprint(encode(game.position()));
  EXPECT_NEAR(norm.sum, 45.512, 1e-3);
  EXPECT_NEAR(norm.key, 37011.632, 1e-2);
  EXPECT_EQ(norm.argmax, 8);
}

// Fingerprints of positions covering every plane group, computed by the independent Python
// encoder in tests/data/nn/make_test_data.py (FENs from Fairy-Stockfish).
TEST(EncoderTest, MatchesPythonReferenceFingerprints) {
  const auto& positions = test::nn_reference().at("positions");
  ASSERT_GE(positions.size(), 9u);
  for (const auto& p : positions) {
    SCOPED_TRACE(p.at("name").get<std::string>());
    const Position pos = Position::from_fen(p.at("fen").get<std::string>());
    const int reps = p.at("repetitions").get<int>();
    for (const char* kind : {"planes", "planes_raw"}) {
      SCOPED_TRACE(kind);
      const auto& want = p.at(kind);
      const Fingerprint f = fingerprint(encode(pos, reps, std::string(kind) == "planes"));
      EXPECT_NEAR(f.sum, want.at("sum").get<double>(), 1e-3);
      EXPECT_NEAR(f.max, want.at("max").get<double>(), 1e-6);
      EXPECT_NEAR(f.key, want.at("key").get<double>(), 1e-2);
      EXPECT_EQ(f.argmax, want.at("argmax").get<int>());
    }
  }
}

// The same positions reached by playing the moves with the rules core: its counters, pockets
// and promoted marks must agree with Fairy-Stockfish's FEN.
TEST(EncoderTest, PlayedMovesGiveTheSamePlanesAsTheFen) {
  for (const auto& p : test::nn_reference().at("positions")) {
    SCOPED_TRACE(p.at("name").get<std::string>());
    Game game(Position::from_fen(p.at("start_fen").get<std::string>()));
    for (const auto& m : p.at("moves")) game.play_uci(m.get<std::string>());
    const Position from_fen = Position::from_fen(p.at("fen").get<std::string>());
    const int reps = p.at("repetitions").get<int>();
    EXPECT_EQ(encode(game.position(), reps), encode(from_fen, reps));
  }
}

TEST(EncoderTest, StartPositionPlanes) {
  const auto planes = encode(Position());
  EXPECT_EQ(plane_bits(planes, plane::kMyPieces + kPawn), rank_bb(1));
  EXPECT_EQ(plane_bits(planes, plane::kMyPieces + kKing), square_bb(sq("e1")));
  EXPECT_EQ(plane_bits(planes, plane::kTheirPieces + kPawn), rank_bb(6));
  EXPECT_EQ(plane_bits(planes, plane::kTheirPieces + kQueen), square_bb(sq("d8")));
  for (int p = plane::kRepetition; p < plane::kColor; ++p) EXPECT_TRUE(plane_is(planes, p, 0));
  EXPECT_TRUE(plane_is(planes, plane::kColor, 1));
  EXPECT_TRUE(plane_is(planes, plane::kMoveCount, 1.0f / 500));
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(plane_is(planes, plane::kCastling + i, 1));
  EXPECT_TRUE(plane_is(planes, plane::kNoProgress, 0));
}

TEST(EncoderTest, BlackToMoveIsFlippedVerticallyAndSeesItselfAsMe) {
  Game game;
  game.play_uci("e2e4");
  const auto planes = encode(game.position());
  // Black's pawns (rank 7) appear on rank 2, its king e8 on e1; white's e4 pawn on e5.
  EXPECT_EQ(plane_bits(planes, plane::kMyPieces + kPawn), rank_bb(1));
  EXPECT_EQ(plane_bits(planes, plane::kMyPieces + kKing), square_bb(sq("e1")));
  EXPECT_EQ(plane_bits(planes, plane::kMyPieces + kQueen), square_bb(sq("d1")));
  EXPECT_EQ(plane_bits(planes, plane::kTheirPieces + kPawn),
            (rank_bb(6) & ~square_bb(sq("e7"))) | square_bb(sq("e5")));
  EXPECT_EQ(plane_bits(planes, plane::kTheirPieces + kKing), square_bb(sq("e8")));
  EXPECT_TRUE(plane_is(planes, plane::kColor, 0));
  EXPECT_TRUE(plane_is(planes, plane::kEnPassant, 0));  // no black pawn can take on e3
}

TEST(EncoderTest, PocketsArePerSideAndScaledBy32) {
  const Position pos =
      Position::from_fen("4k3/8/8/8/8/8/8/4K3[QQRRBBNNPPPPPPPPqrbnppp] b - - 37 60");
  const auto planes = encode(pos);
  // Black to move: "my" pocket is black's.
  const float mine[5] = {3, 1, 1, 1, 1}, theirs[5] = {8, 2, 2, 2, 2};
  for (int pt = 0; pt < 5; ++pt) {
    EXPECT_TRUE(plane_is(planes, plane::kMyPocket + pt, mine[pt] / 32)) << pt;
    EXPECT_TRUE(plane_is(planes, plane::kTheirPocket + pt, theirs[pt] / 32)) << pt;
  }
  EXPECT_TRUE(plane_is(planes, plane::kMoveCount, 60.0f / 500));
  EXPECT_TRUE(plane_is(planes, plane::kNoProgress, 37.0f / 40));
  const auto raw = encode(pos, 0, false);
  EXPECT_TRUE(plane_is(raw, plane::kTheirPocket + kPawn, 8));
  EXPECT_TRUE(plane_is(raw, plane::kMoveCount, 60));
  EXPECT_TRUE(plane_is(raw, plane::kNoProgress, 37));
}

TEST(EncoderTest, PromotedPiecesBothSides) {
  // White's a8 queen and black's h1 queen are promoted pawns; white to move.
  const Position pos = Position::from_fen("Q~7/4k3/8/8/8/8/3K4/7q~[r] w - - 0 31");
  const auto planes = encode(pos);
  EXPECT_EQ(plane_bits(planes, plane::kMyPromoted), square_bb(sq("a8")));
  EXPECT_EQ(plane_bits(planes, plane::kTheirPromoted), square_bb(sq("h1")));
  // Seen from black, the same marks swap planes and ranks.
  const Position black = Position::from_fen("Q~7/4k3/8/8/8/8/3K4/7q~[r] b - - 0 31");
  const auto bplanes = encode(black);
  EXPECT_EQ(plane_bits(bplanes, plane::kMyPromoted), square_bb(sq("h8")));
  EXPECT_EQ(plane_bits(bplanes, plane::kTheirPromoted), square_bb(sq("a1")));
}

TEST(EncoderTest, PartialCastlingFromBothViews) {
  const char* board = "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R[] ";
  const auto w = encode(Position::from_fen(std::string(board) + "w Kq - 0 20"));
  EXPECT_TRUE(plane_is(w, plane::kCastling + 0, 1));  // my O-O (white K)
  EXPECT_TRUE(plane_is(w, plane::kCastling + 1, 0));
  EXPECT_TRUE(plane_is(w, plane::kCastling + 2, 0));
  EXPECT_TRUE(plane_is(w, plane::kCastling + 3, 1));  // their O-O-O (black q)
  const auto b = encode(Position::from_fen(std::string(board) + "b Kq - 0 20"));
  EXPECT_TRUE(plane_is(b, plane::kCastling + 0, 0));
  EXPECT_TRUE(plane_is(b, plane::kCastling + 1, 1));  // my O-O-O (black q)
  EXPECT_TRUE(plane_is(b, plane::kCastling + 2, 1));  // their O-O (white K)
  EXPECT_TRUE(plane_is(b, plane::kCastling + 3, 0));
}

TEST(EncoderTest, EnPassantSquareOnlyWhenCapturable) {
  Game game;
  for (const char* m : {"e2e4", "g8f6", "e4e5", "d7d5"}) game.play_uci(m);
  const auto planes = encode(game.position());
  EXPECT_EQ(plane_bits(planes, plane::kEnPassant), square_bb(sq("d6")));
  EXPECT_EQ(at(planes, plane::kEnPassant, sq("d6")), 1.0f);
  // Black's e.p. square e3 (after e2e4 with a black pawn on d4), flipped to e6.
  Game black(Position::from_fen("4k3/8/8/8/3p4/8/4P3/4K3[] w - - 0 30"));
  black.play_uci("e2e4");
  EXPECT_EQ(plane_bits(encode(black.position()), plane::kEnPassant), square_bb(sq("e6")));
}

TEST(EncoderTest, RepetitionPlanes) {
  const Position pos;
  EXPECT_TRUE(plane_is(encode(pos, 0), plane::kRepetition, 0));
  EXPECT_TRUE(plane_is(encode(pos, 1), plane::kRepetition, 1));
  EXPECT_TRUE(plane_is(encode(pos, 1), plane::kRepetition + 1, 0));
  EXPECT_TRUE(plane_is(encode(pos, 2), plane::kRepetition, 1));
  EXPECT_TRUE(plane_is(encode(pos, 2), plane::kRepetition + 1, 1));
}

TEST(EncoderTest, BatchIsPositionsBackToBack) {
  Game game;
  game.play_uci("g1f3");
  const std::vector<EvalInput> inputs = {{Position(), 0}, {game.position(), 1}};
  std::vector<float> batch(2 * kInputSize, -1.0f);
  encode_batch(inputs, batch);
  const auto first = encode(inputs[0].position, 0), second = encode(inputs[1].position, 1);
  EXPECT_TRUE(std::equal(first.begin(), first.end(), batch.begin()));
  EXPECT_TRUE(std::equal(second.begin(), second.end(), batch.begin() + kInputSize));
}

}  // namespace
}  // namespace zh
