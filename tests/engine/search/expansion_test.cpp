#include "engine/search/expansion.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/chess/check_detector.h"
#include "engine/chess/notation.h"

namespace zh {
namespace {

Evaluation uniform(const Position& pos, float value = 0.0f) {
  Evaluation e;
  e.value = value;
  const MoveList moves = pos.legal_moves();
  for (Move m : moves) e.priors.push_back({m, 1.0f / float(moves.size())});
  return e;
}

TEST(Expansion, CheckEnhancementEq12HandComputed) {
  // priors 0.6 (no check), 0.3 (check), 0.05 (check), 0.05 (no check); threshold 0.1.
  // Only the 0.05 check is raised: + 0.5 * 0.6 = 0.35; sum 1.3; renormalised.
  std::vector<float> p = {0.6f, 0.3f, 0.05f, 0.05f};
  enhance_checks(p, {0, 1, 1, 0}, 0.1, 0.5);
  EXPECT_NEAR(p[0], 0.6 / 1.3, 1e-6);
  EXPECT_NEAR(p[1], 0.3 / 1.3, 1e-6);
  EXPECT_NEAR(p[2], 0.35 / 1.3, 1e-6);
  EXPECT_NEAR(p[3], 0.05 / 1.3, 1e-6);
  std::vector<float> q = {0.5f, 0.5f};
  enhance_checks(q, {1, 1}, 0.1, 0.5);  // nothing under the threshold: unchanged
  EXPECT_FLOAT_EQ(q[0], 0.5f);
}

TEST(Expansion, BlockIsSortedByPriorAndRaisesChecks) {
  // Back-rank mate by a rook drop: R@a8..R@e8 all mate.
  const Position pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1");
  const Evaluation e = uniform(pos, 0.25f);
  EvalBlock* b = make_eval_block(pos, e, ExpansionOptions{});
  ASSERT_EQ(b->num_edges, e.priors.size());
  EXPECT_FLOAT_EQ(b->value, 0.25f);
  float sum = 0;
  for (int i = 0; i < b->num_edges; ++i) {
    sum += b->edges()[i].get_prior();
    if (i) {
      EXPECT_GE(b->edges()[i - 1].get_prior(), b->edges()[i].get_prior());
    }
  }
  EXPECT_NEAR(sum, 1.0f, 2e-3f);
  EXPECT_EQ(b->mate_edge, -1);  // mates are the mate searches' to prove
  EXPECT_TRUE(b->evaluated);
  // Checking moves were raised above the quiet ones.
  EXPECT_TRUE(CheckDetector(pos).gives_check(b->edges()[0].get_move()));
  b->release();
}

TEST(Expansion, AMateProofEntersTheBlock) {
  const Position pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1");
  MateSearch mate;
  const MateProof proof = mate.find(pos, MateLimits{1, 0});
  ASSERT_TRUE(proof.found());
  EvalBlock* b = make_eval_block(pos, uniform(pos), ExpansionOptions{});
  attach_mate(*b, proof);
  ASSERT_GE(b->mate_edge, 0);
  EXPECT_EQ(b->edges()[b->mate_edge].get_move(), proof.move);
  EXPECT_EQ(b->mate_plies, 1);
  b->release();

  // Proven before any network call: every legal move, the mate first, not evaluated.
  EvalBlock* p = make_proven_block(pos, proof);
  EXPECT_EQ(p->num_edges, pos.count_legal_moves());
  EXPECT_TRUE(block_matches_position(*p, pos));
  EXPECT_EQ(p->mate_edge, 0);
  EXPECT_EQ(p->edges()[0].get_move(), proof.move);
  EXPECT_EQ(p->mate_plies, 1);
  EXPECT_FALSE(p->evaluated);
  EXPECT_FLOAT_EQ(p->value, 1.0f);
  p->release();
}

TEST(Expansion, OptionsOffKeepTheEvaluatorsPriors) {
  const Position pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1");
  ExpansionOptions off;
  off.check_enhancement = false;
  const Evaluation e = uniform(pos);
  EvalBlock* b = make_eval_block(pos, e, off);
  EXPECT_EQ(b->mate_edge, -1);
  for (int i = 0; i < b->num_edges; ++i) {
    EXPECT_EQ(b->edges()[i].move, e.priors[i].move.raw());  // ties keep the order
    EXPECT_NEAR(b->edges()[i].get_prior(), e.priors[i].prior, 1e-4);
  }
  b->release();
}

TEST(Expansion, TerminalPositionHasNoEdges) {
  const Position mated = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1[] b - - 0 1");
  ASSERT_TRUE(mated.is_checkmate());
  EvalBlock* b = make_eval_block(mated, uniform(mated), ExpansionOptions{});
  EXPECT_EQ(b->num_edges, 0);
  b->release();
}

TEST(Expansion, ABlockMatchesOnlyItsOwnPositionsLegalMoves) {
  const Position start;
  Position after = start;
  after.do_move(parse_uci(start, "e2e4"));
  auto block_of = [](const Position& pos, Evaluation e) {
    return make_eval_block(pos, e, ExpansionOptions{});
  };
  Evaluation rising = uniform(start);  // the last move first once sorted by prior
  for (std::size_t i = 0; i < rising.priors.size(); ++i)
    rising.priors[i].prior = float(i + 1) / 210;
  EvalBlock* own = block_of(start, rising);
  ASSERT_NE(own->edges()[0].get_move(), rising.priors[0].move);
  EXPECT_TRUE(block_matches_position(*own, start));
  EXPECT_FALSE(block_matches_position(*own, after));  // another position's moves
  Evaluation short_one = uniform(start);
  short_one.priors.pop_back();
  EvalBlock* missing = block_of(start, short_one);
  EXPECT_FALSE(block_matches_position(*missing, start));
  own->release();
  missing->release();
}

}  // namespace
}  // namespace zh
