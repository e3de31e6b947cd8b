// Input format 2.0 (engine/nn/encoder.h): format 1.0's planes, then the last two moves, the
// pieces giving check and the material balance, all seen from the side to move.
#include <gtest/gtest.h>

#include <vector>

#include "engine/chess/game.h"
#include "engine/nn/encoder.h"

namespace zh {
namespace {

Square sq(const char* name) { return make_square(name[0] - 'a', name[1] - '1'); }

std::vector<float> encode(const EvalInput& input, InputFormat f = InputFormat::kV2) {
  std::vector<float> planes(std::size_t(input_size(f)), -7.0f);  // garbage: all overwritten
  encode_position(input, planes, true, f);
  return planes;
}

EvalInput after(const std::vector<const char*>& moves, const char* fen = nullptr) {
  Game game(fen ? Position::from_fen(fen) : Position());
  for (const char* m : moves) game.play_uci(m);
  return EvalInput{game.position(), game.repetitions(), last_moves_of(game.moves())};
}

Bitboard bits(const std::vector<float>& planes, int plane) {
  Bitboard bb = 0;
  for (int s = 0; s < 64; ++s)
    if (planes[std::size_t(plane * 64 + s)] == 1.0f) bb |= square_bb(Square(s));
  return bb;
}

float value(const std::vector<float>& planes, int plane) {
  for (int s = 1; s < 64; ++s) EXPECT_EQ(planes[std::size_t(plane * 64 + s)], planes[plane * 64]);
  return planes[std::size_t(plane * 64)];
}

TEST(EncoderV2, ItsFirstPlanesAreFormat1s) {
  const EvalInput input = after({"e2e4", "d7d5", "e4d5", "d8d5"});
  const std::vector<float> v1 = encode(input, InputFormat::kV1), v2 = encode(input);
  ASSERT_EQ(v2.size(), std::size_t(46 * 64));
  EXPECT_TRUE(std::equal(v1.begin(), v1.end(), v2.begin()));
}

TEST(EncoderV2, LastMovesAreFromAndToSeenFromTheSideToMove) {
  // White to move: Black's e7e5 last, White's e2e4 before it; no flip.
  std::vector<float> p = encode(after({"e2e4", "e7e5"}));
  EXPECT_EQ(bits(p, plane::kLastMove), square_bb(sq("e7")));
  EXPECT_EQ(bits(p, plane::kLastMove + 1), square_bb(sq("e5")));
  EXPECT_EQ(value(p, plane::kLastMove + 2), 0.0f);
  EXPECT_EQ(bits(p, plane::kMyLastMove), square_bb(sq("e2")));
  EXPECT_EQ(bits(p, plane::kMyLastMove + 1), square_bb(sq("e4")));
  // Black to move: ranks flipped; no move before the first.
  p = encode(after({"e2e4"}));
  EXPECT_EQ(bits(p, plane::kLastMove), square_bb(sq("e7")));
  EXPECT_EQ(bits(p, plane::kLastMove + 1), square_bb(sq("e5")));
  EXPECT_EQ(bits(p, plane::kMyLastMove) | bits(p, plane::kMyLastMove + 1), 0u);
  // The start: no last move at all.
  p = encode(after({}));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(bits(p, plane::kLastMove + i), 0u);
}

TEST(EncoderV2, ADropMarksItsSquareAndTheDropPlane) {
  // White has a knight in hand and drops it on f6 with check; Black to move (flipped: f3).
  const EvalInput input =
      after({"N@f6"}, "rnbqkbnr/pppp1ppp/8/8/8/8/PPPPPPPP/RNBQKB1R[N] w KQkq - 0 3");
  const std::vector<float> p = encode(input);
  EXPECT_EQ(bits(p, plane::kLastMove), 0u);
  EXPECT_EQ(bits(p, plane::kLastMove + 1), square_bb(sq("f3")));
  EXPECT_EQ(value(p, plane::kLastMove + 2), 1.0f);
  EXPECT_EQ(bits(p, plane::kCheckers), square_bb(sq("f3")));  // the dropped knight checks
}

TEST(EncoderV2, CheckersAreThePiecesGivingCheck) {
  const EvalInput input{
      Position::from_fen("rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR[] b KQkq - 1 3"), 0};
  EXPECT_EQ(bits(encode(input), plane::kCheckers), square_bb(sq("b4")));  // Bb5, flipped
  EXPECT_EQ(bits(encode(after({"e2e4"})), plane::kCheckers), 0u);
}

TEST(EncoderV2, MaterialDifferenceCountsBoardAndPocketForTheSideToMove) {
  // White took the queen (in its pocket) and is a knight down on the board.
  const char* fen = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[Q] w KQkq - 0 1";
  std::vector<float> p = encode(EvalInput{Position::from_fen(fen), 0});
  EXPECT_EQ(value(p, plane::kMaterialDiff + kQueen), 2.0f / kMaterialScale);
  EXPECT_EQ(value(p, plane::kMaterialDiff + kKnight), -1.0f / kMaterialScale);
  EXPECT_EQ(value(p, plane::kMaterialDiff + kPawn), 0.0f);
  // The same material with Black to move: the signs turn.
  const char* black = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[Q] b KQkq - 0 1";
  p = encode(EvalInput{Position::from_fen(black), 0});
  EXPECT_EQ(value(p, plane::kMaterialDiff + kQueen), -2.0f / kMaterialScale);
  EXPECT_EQ(value(p, plane::kMaterialDiff + kKnight), 1.0f / kMaterialScale);
}

TEST(EncoderV2, FormatsAreParsedAndUnknownOnesNamed) {
  EXPECT_EQ(parse_input_format("2.0"), InputFormat::kV2);
  EXPECT_EQ(parse_input_format("1"), InputFormat::kV1);
  try {
    parse_input_format("3.0");
    ADD_FAILURE() << "format 3.0 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'3.0' is unknown"), std::string::npos) << e.what();
  }
  EXPECT_EQ(describe(InputFormat::kV2), "format 2.0 (46 planes)");
}

}  // namespace
}  // namespace zh
