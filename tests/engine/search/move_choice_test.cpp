#include "engine/search/move_choice.h"

#include <gtest/gtest.h>

#include "engine/search/formulas.h"

namespace zh {
namespace {

RootChild child(int visits, float q, float prior = 0.1f) {
  RootChild c;
  c.move = Move::normal(Square(visits % 64), Square((visits + 9) % 64));
  c.visits = std::uint32_t(visits);
  c.q = q;
  c.prior = prior;
  return c;
}

TEST(MoveChoice, FinalPolicyEq5And7) {
  // N(s) = 0 -> Qthresh = 0.5 * max N = 50. Child b (40 visits) is under it: Q' = 0.
  const std::vector<RootChild> c = {child(100, 0.0f), child(40, 0.8f), child(60, 0.2f)};
  const MoveChoiceParams p;
  const auto pi = final_policy(c, 0, p);
  // a: 0.3 * 100/200 + 0.7 * 0.5 = 0.5; b: 0.3 * 0.2 + 0 = 0.06; c: 0.3*0.3 + 0.7*0.6 = 0.51.
  EXPECT_NEAR(pi[0], 0.50, 1e-9);
  EXPECT_NEAR(pi[1], 0.06, 1e-9);
  EXPECT_NEAR(pi[2], 0.51, 1e-6);
  EXPECT_EQ(choose_move(c, 0, p), 2);  // Q outweighs visits here
}

TEST(MoveChoice, ChallengerShareIsTheBestQChallengersVisitShare) {
  // The chosen move (0) has 100 visits; 1 looks better with 40, 2 better with 60, 3 worse.
  const std::vector<RootChild> c = {child(100, 0.1f), child(40, 0.3f), child(60, 0.2f),
                                    child(90, 0.0f), child(0, 0.9f)};
  EXPECT_DOUBLE_EQ(challenger_share(c, 0), 0.6);
  // Nothing better than the best by Q; an unvisited child (its Q is a placeholder) is no rival.
  EXPECT_DOUBLE_EQ(challenger_share(c, 1), 0.0);
  EXPECT_DOUBLE_EQ(challenger_share(c, -1), 0.0);
  EXPECT_DOUBLE_EQ(challenger_share({}, 0), 0.0);
  // A rival with more visits than the chosen move counts above 1.
  EXPECT_DOUBLE_EQ(challenger_share(c, 2), 40.0 / 60.0);
  EXPECT_DOUBLE_EQ(challenger_share(c, 3), 100.0 / 90.0);
}

TEST(MoveChoice, VisitsToChangeIsTheClosestRivalsDistanceToTheQThreshold) {
  // N(s) = 0: the threshold is 0.5 * 100 = 50; the rivals need 20 and 40 more visits.
  std::vector<RootChild> c = {child(100, 0.1f), child(30, 0.5f), child(10, 0.9f)};
  const MoveChoiceParams p;
  EXPECT_EQ(visits_to_change(c, 0, 0, p), 20u);
  // With many parent visits the threshold nears 0.9 * 100: the rival needs about 60.
  EXPECT_EQ(visits_to_change(c, 0, 1'000'000, p), 60u);
  // A move proven to lose is never played: it is no rival.
  c[1].proof = Proof::kWin;
  EXPECT_EQ(visits_to_change(c, 0, 0, p), 40u);
  // A rival past the threshold, or a chosen move that is not the most visited: any playout
  // can change the choice.
  c[2].visits = 55;
  EXPECT_EQ(visits_to_change(c, 0, 0, p), 0u);
  const std::vector<RootChild> by_q = {child(100, 0.0f), child(85, 0.5f)};
  EXPECT_EQ(choose_move(by_q, 10, p), 1);
  EXPECT_EQ(visits_to_change(by_q, 1, 10, p), 0u);
  // No rival at all (the others lose by force), or no choice yet.
  c[2].proof = Proof::kWin;
  EXPECT_EQ(visits_to_change(c, 0, 0, p), kNoRival);
  EXPECT_EQ(visits_to_change(c, -1, 0, p), 0u);
}

TEST(MoveChoice, ThresholdGrowsWithParentVisits) {
  // With N(s) large the threshold nears 0.9 * max N: 85 of 100 visits no longer counts.
  const std::vector<RootChild> c = {child(100, 0.0f), child(85, 0.5f)};
  const MoveChoiceParams p;
  EXPECT_EQ(choose_move(c, 10, p), 1);      // threshold 0.5 * 100 = 50 < 85
  EXPECT_EQ(choose_move(c, 100000, p), 0);  // threshold ~90 > 85 -> Q' = 0
}

TEST(MoveChoice, QFactorZeroIsMostVisited) {
  const std::vector<RootChild> c = {child(10, 0.9f), child(30, -0.5f)};
  MoveChoiceParams p;
  p.q_factor = 0;
  EXPECT_EQ(choose_move(c, 40, p), 1);
}

TEST(MoveChoice, ProofsComeFirst) {
  std::vector<RootChild> c = {child(500, 0.3f), child(2, -0.9f), child(3, 0.0f)};
  c[1].proof = Proof::kLoss;  // the reply position is lost: this move mates
  c[1].proof_plies = 2;
  c[2].proof = Proof::kLoss;
  c[2].proof_plies = 0;  // mate at once beats mate later
  EXPECT_EQ(choose_move(c, 506, MoveChoiceParams{}), 2);
}

TEST(MoveChoice, AvoidsProvenLossesAndDelaysForcedOnes) {
  std::vector<RootChild> c = {child(500, 0.9f), child(20, 0.1f)};
  c[0].proof = Proof::kWin;  // opponent wins after this move
  c[0].proof_plies = 1;
  EXPECT_EQ(choose_move(c, 521, MoveChoiceParams{}), 1);
  c[1].proof = Proof::kWin;
  c[1].proof_plies = 5;
  EXPECT_EQ(choose_move(c, 521, MoveChoiceParams{}), 1);  // everything loses: the slowest
}

TEST(MoveChoice, AMoveProvenLostSetsNoThresholdForTheOthers) {
  // a: 500 visits, then proven to lose (the prover refutes the most visited moves); b: 200 at
  // Q +0.3; c: 250 at Q -0.4; N(s) = 951. With a's visits as eq. (5)'s maximum both b and c
  // fall under the threshold (about 0.65 * 500) and c is played on visits alone; without them
  // the threshold is about 0.65 * 250, b keeps its Q and is played.
  std::vector<RootChild> c = {child(500, 0.5f), child(200, 0.3f), child(250, -0.4f)};
  c[0].proof = Proof::kWin;
  const MoveChoiceParams p;
  const auto pi = final_policy(c, 951, p);
  EXPECT_EQ(pi[0], 0.0);
  const double q_thresh =
      formulas::q_threshold(951, p.q_thresh_init, p.q_thresh_max, p.q_thresh_base);
  ASSERT_GT(200.0, q_thresh * 250) << "b is over the threshold the open moves set";
  EXPECT_NEAR(pi[1], 0.3 * 200 / 450 + 0.7 * 0.65, 1e-6);
  EXPECT_NEAR(pi[2], 0.3 * 250 / 450 + 0.7 * 0.3, 1e-6);
  EXPECT_EQ(choose_move(c, 951, p), 1);
}

TEST(MoveChoice, UnvisitedRootFallsBackToPrior) {
  std::vector<RootChild> c = {child(0, -1, 0.2f), child(0, -1, 0.7f), child(0, -1, 0.1f)};
  EXPECT_EQ(choose_move(c, 1, MoveChoiceParams{}), 1);
  EXPECT_EQ(choose_move({}, 1, MoveChoiceParams{}), -1);
}

TEST(MoveChoice, TemperatureSamplesMostlyTheBestAtLowTemperature) {
  const std::vector<RootChild> c = {child(100, 0.0f), child(90, 0.0f)};
  std::mt19937_64 rng(7);
  int best = 0, other = 0;
  for (int i = 0; i < 200; ++i)
    (choose_move(c, 190, MoveChoiceParams{}, 0.07, &rng) == 0 ? best : other)++;
  // pi = 0.508 vs 0.492; (ratio)^(1/0.07) = 1.57 -> ~61% vs 39%: both get played.
  EXPECT_GT(best, 80);
  EXPECT_GT(other, 50);
  int high = 0;
  for (int i = 0; i < 200; ++i) high += choose_move(c, 190, MoveChoiceParams{}, 0.001, &rng) == 0;
  EXPECT_GT(high, 190);
}

}  // namespace
}  // namespace zh
