// The weight-free backends: uniform and material.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <thread>
#include <vector>

#include "engine/chess/notation.h"
#include "engine/nn/backends/material.h"
#include "engine/nn/backends/uniform.h"

namespace zh {
namespace {

Evaluation eval_one(Evaluator& e, const Position& pos) {
  EvalInput in{pos, 0};
  Evaluation out;
  e.evaluate(std::span<const EvalInput>(&in, 1), std::span<Evaluation>(&out, 1));
  return out;
}

float prior_of(const Evaluation& e, Move m) {
  for (const auto& p : e.priors)
    if (p.move == m) return p.prior;
  return -1.0f;
}

void expect_priors_cover_legal_moves(const Position& pos, const Evaluation& e) {
  const MoveList legal = pos.legal_moves();
  ASSERT_EQ(e.priors.size(), static_cast<std::size_t>(legal.size()));
  double sum = 0.0;
  for (const auto& p : e.priors) {
    EXPECT_TRUE(legal.contains(p.move));
    EXPECT_GT(p.prior, 0.0f);
    sum += p.prior;
  }
  EXPECT_NEAR(sum, 1.0, 1e-5);
}

// A middlegame with pockets on both sides, checks and captures available.
constexpr const char* kTactical =
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[Pn] w KQkq - 4 5";
// White is mated (fool's mate) with empty pockets: no legal moves.
constexpr const char* kMated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR[] w KQkq - 1 3";

TEST(UniformEvaluatorTest, EqualPriorsValueZero) {
  UniformEvaluator e;
  for (const char* fen : {Position::kStartFen.data(), kTactical}) {
    const Position pos = Position::from_fen(fen);
    const Evaluation out = eval_one(e, pos);
    EXPECT_EQ(out.value, 0.0f);
    expect_priors_cover_legal_moves(pos, out);
    for (const auto& p : out.priors) EXPECT_FLOAT_EQ(p.prior, out.priors[0].prior);
  }
  EXPECT_EQ(eval_one(e, Position()).priors.size(), 20u);
}

TEST(UniformEvaluatorTest, NoLegalMovesGivesNoPriors) {
  UniformEvaluator e;
  const Position pos = Position::from_fen(kMated);
  ASSERT_TRUE(pos.is_checkmate());
  EXPECT_TRUE(eval_one(e, pos).priors.empty());
}

TEST(MaterialEvaluatorTest, StartIsBalanced) {
  EXPECT_NEAR(MaterialEvaluator::value_of(Position()), 0.0f, 1e-6);
}

TEST(MaterialEvaluatorTest, ExtraMaterialIsGoodForItsOwnerFromBothSides) {
  // White has an extra queen in hand; the value is from the side to move's view.
  const Position w =
      Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q] w KQkq - 0 1");
  const Position b =
      Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q] b KQkq - 0 1");
  const float vw = MaterialEvaluator::value_of(w);
  const float vb = MaterialEvaluator::value_of(b);
  EXPECT_GT(vw, 0.3f);
  EXPECT_LT(vb, -0.3f);
  EXPECT_LE(std::abs(vw), 1.0f);
}

TEST(MaterialEvaluatorTest, ValueStaysInRangeWithHugeMaterial) {
  const Position pos = Position::from_fen("4k3/8/8/8/8/8/8/QQQQKQQQ[QQQQRRRR] w - - 0 1");
  const float v = MaterialEvaluator::value_of(pos);
  EXPECT_GT(v, 0.99f);
  EXPECT_LE(v, 1.0f);
}

TEST(MaterialEvaluatorTest, MatedIsMinusOne) {
  MaterialEvaluator e;
  const Evaluation out = eval_one(e, Position::from_fen(kMated));
  EXPECT_EQ(out.value, -1.0f);
  EXPECT_TRUE(out.priors.empty());
}

TEST(MaterialEvaluatorTest, PriorsFavourChecksCapturesAndKingDrops) {
  MaterialEvaluator e;
  const Position pos = Position::from_fen(kTactical);
  const Evaluation out = eval_one(e, pos);
  expect_priors_cover_legal_moves(pos, out);
  const float quiet = prior_of(out, parse_uci(pos, "a2a3"));
  const float check_capture = prior_of(out, parse_uci(pos, "c4f7"));  // Bxf7+
  const float drop_near_king = prior_of(out, parse_uci(pos, "P@e7"));
  const float far_drop = prior_of(out, parse_uci(pos, "P@a3"));
  EXPECT_GT(check_capture, quiet * 2.0f);
  EXPECT_GT(drop_near_king, far_drop);
  EXPECT_FLOAT_EQ(far_drop, quiet);
}

TEST(MaterialEvaluatorTest, HighTemperatureFlattensPriors) {
  MaterialEvaluator sharp(1.0f), flat(100.0f);
  const Position pos = Position::from_fen(kTactical);
  const Evaluation a = eval_one(sharp, pos), b = eval_one(flat, pos);
  auto spread = [](const Evaluation& e) {
    float lo = 1.0f, hi = 0.0f;
    for (const auto& p : e.priors) lo = std::min(lo, p.prior), hi = std::max(hi, p.prior);
    return hi / lo;
  };
  EXPECT_GT(spread(a), 2.0f);
  EXPECT_LT(spread(b), 1.05f);
}

TEST(MaterialEvaluatorTest, ConcurrentCallsAgree) {
  MaterialEvaluator e;
  const Position pos = Position::from_fen(kTactical);
  const Evaluation ref = eval_one(e, pos);
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        const Evaluation out = eval_one(e, pos);
        if (out.value != ref.value || out.priors.size() != ref.priors.size()) ++mismatches[t];
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(std::accumulate(mismatches.begin(), mismatches.end(), 0), 0);
}

}  // namespace
}  // namespace zh
