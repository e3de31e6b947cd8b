#include "engine/datagen/record_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine/chess/game.h"
#include "engine/chess/notation.h"
#include "engine/nn/encoder.h"

namespace zh::datagen {
namespace {

// Format 2.0's planes (a record holds them all), with a last move and a drop before it.
std::vector<float> encode(const Position& pos, int repetitions, InputFormat f = InputFormat::kV2) {
  std::vector<float> planes(std::size_t(input_size(f)));
  EvalInput input{pos, repetitions};
  input.last_moves = {Move::normal(12, 28), Move::drop(kKnight, 45)};  // e2e4, N@f6
  encode_position(input, planes, true, f);
  return planes;
}

TEST(RecordFormat, PlanesSurviveThePackingBitForBit) {
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
      "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
      "2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - - 0 1",
      "b3kb2/pn1ppp1Q~/pPqr2p1/2p5/7R/R5P1/P1PP1PBP/1NBQ2NK/PNR w - - 4 6",
      "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR[] w KQkq d6 0 3",
      "4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - - 37 90",
  };
  for (const char* fen : fens) {
    for (int reps : {0, 1, 2}) {
      const Position pos = Position::from_fen(fen);
      const std::vector<float> planes = encode(pos, reps);
      Record r{};
      pack_planes(planes, r);
      std::vector<float> back(planes.size(), -1.0f);
      unpack_planes(r, back, InputFormat::kV2);
      EXPECT_EQ(back, planes) << fen << " repetitions " << reps;
      // Format 1.0 is the first 34 planes, as its own encoding gives them.
      std::vector<float> v1(kInputSize, -1.0f);
      unpack_planes(r, v1, InputFormat::kV1);
      EXPECT_EQ(v1, encode(pos, reps, InputFormat::kV1)) << fen;
    }
  }
}

TEST(RecordFormat, RefusesPlanesThatBreakTheirKind) {
  std::vector<float> planes = encode(Position(), 0);
  Record r{};
  planes[3 * 64 + 5] = 0.5f;  // a piece plane must be 0/1
  EXPECT_THROW(pack_planes(planes, r), std::logic_error);
  planes = encode(Position(), 0);
  planes[plane::kMoveCount * 64 + 9] += 1.0f;  // a constant plane must be constant
  EXPECT_THROW(pack_planes(planes, r), std::logic_error);
}

TEST(RecordFormat, ScoresEncodeMatesAboveEveryCentipawnValue) {
  EXPECT_EQ(encode_score(123, 0), 123);
  EXPECT_EQ(encode_score(-50, 0), -50);
  EXPECT_EQ(encode_score(0, 1), kMateScore - 1);
  EXPECT_EQ(encode_score(0, -3), -kMateScore + 3);
  EXPECT_LT(encode_score(1000000, 0), encode_score(0, 40));  // cp is clamped below mates
}

TEST(RecordFormat, PolicyIsASoftmaxOfTheScoresBestFirst) {
  Record r{};
  const ScoredMove moves[] = {{10, 100}, {20, 40}, {30, -500}};
  set_policy(moves, 60.0f, r);
  EXPECT_EQ(r.pv_count, 3);
  EXPECT_EQ(r.policy_index[0], 10);
  EXPECT_NEAR(r.policy_prob[0] + r.policy_prob[1] + r.policy_prob[2], 1.0f, 1e-6);
  EXPECT_GT(r.policy_prob[0], r.policy_prob[1]);
  EXPECT_GT(r.policy_prob[1], r.policy_prob[2]);
  EXPECT_NEAR(r.policy_prob[1] / r.policy_prob[0], std::exp(-1.0), 1e-5);
  set_policy(moves, 0.0f, r);  // one-hot
  EXPECT_EQ(r.policy_prob[0], 1.0f);
  EXPECT_EQ(r.policy_prob[1], 0.0f);
}

TEST(RecordFormat, HeaderChecksNameTheProblem) {
  ShardHeader h = make_header(3, 0.0f);
  EXPECT_NO_THROW(check_header(h, "x"));
  ShardHeader bad = h;
  bad.magic[0] = 'Q';
  EXPECT_THROW(
      {
        try {
          check_header(bad, "file.zhrec");
        } catch (const FormatError& e) {
          EXPECT_NE(std::string(e.what()).find("file.zhrec"), std::string::npos);
          EXPECT_NE(std::string(e.what()).find("magic"), std::string::npos);
          throw;
        }
      },
      FormatError);
  bad = h;
  bad.format_version = 2;  // a version-2 record is longer
  EXPECT_THROW(check_header(bad, "x"), FormatError);
  bad.format_version = 3;
  EXPECT_THROW(check_header(bad, "x"), FormatError);
  const ShardHeader v2 = make_header(3, 0.0f, InputFormat::kV2);
  EXPECT_EQ(check_header(v2, "x"), InputFormat::kV2);
  EXPECT_EQ(check_header(h, "x"), InputFormat::kV1);
  bad = v2;
  bad.plane_kind_more[plane::kCheckers - kInputPlanes] = 1;  // the checkers plane is a mask
  EXPECT_THROW(check_header(bad, "x"), FormatError);
  bad = v2;
  bad.input_version[0] = '1';
  EXPECT_THROW(check_header(bad, "x"), FormatError);
  bad = h;
  bad.input_version[0] = '2';
  EXPECT_THROW(check_header(bad, "x"), FormatError);
  bad = h;
  bad.plane_kind[0] = 1;
  EXPECT_THROW(check_header(bad, "x"), FormatError);
}

TEST(RecordFormat, FenIsKeptAndTooLongOnesAreRefused) {
  Record r{};
  set_fen(Position::kStartFen, r);
  EXPECT_EQ(fen_of(r), Position::kStartFen);
  EXPECT_THROW(set_fen(std::string(200, 'x'), r), FormatError);
}

}  // namespace
}  // namespace zh::datagen
