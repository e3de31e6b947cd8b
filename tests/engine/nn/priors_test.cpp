#include "engine/nn/priors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "engine/chess/notation.h"
#include "engine/nn/policy_map.h"

namespace zh {
namespace {

float prior_of(const std::vector<MovePrior>& priors, Move m) {
  for (const auto& p : priors)
    if (p.move == m) return p.prior;
  return -1.0f;
}

TEST(PriorsTest, SoftmaxOverLegalMovesOnly) {
  const Position pos;
  std::vector<float> logits(kPolicySize, 0.0f);
  // Huge logits on indices no legal move uses must not matter.
  for (int i = 0; i < kPolicySize; ++i) logits[i] = 50.0f;
  for (Move m : pos.legal_moves()) logits[policy_index(m, kWhite)] = 0.0f;
  const Move e4 = parse_uci(pos, "e2e4"), d4 = parse_uci(pos, "d2d4");
  logits[policy_index(e4, kWhite)] = std::log(3.0f);
  std::vector<MovePrior> priors;
  legal_move_priors(pos, logits, 1.0f, priors);
  ASSERT_EQ(priors.size(), 20u);
  double sum = 0;
  for (const auto& p : priors) sum += p.prior;
  EXPECT_NEAR(sum, 1.0, 1e-6);
  EXPECT_NEAR(prior_of(priors, e4), 3.0f / 22.0f, 1e-6);
  EXPECT_NEAR(prior_of(priors, d4), 1.0f / 22.0f, 1e-6);
}

TEST(PriorsTest, TemperatureFlattens) {
  const Position pos;
  std::vector<float> logits(kPolicySize, 0.0f);
  const Move e4 = parse_uci(pos, "e2e4");
  logits[policy_index(e4, kWhite)] = 2.0f;
  std::vector<MovePrior> t1, t2;
  legal_move_priors(pos, logits, 1.0f, t1);
  legal_move_priors(pos, logits, 2.0f, t2);
  // T = 2 halves the logit: e^1 against 19 ones.
  EXPECT_NEAR(prior_of(t2, e4), std::exp(1.0f) / (std::exp(1.0f) + 19.0f), 1e-6);
  EXPECT_LT(prior_of(t2, e4), prior_of(t1, e4));
}

TEST(PriorsTest, UsesBlacksMirroredIndices) {
  const Position pos =
      Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1");
  std::vector<float> logits(kPolicySize, 0.0f);
  logits[76] = 10.0f;  // "e2e4" from the mover's view: black's e7e5
  std::vector<MovePrior> priors;
  legal_move_priors(pos, logits, 1.0f, priors);
  EXPECT_GT(prior_of(priors, parse_uci(pos, "e7e5")), 0.99f);
}

TEST(PriorsTest, LargeLogitsStayFiniteAndNanFallsBackToUniform) {
  const Position pos;
  std::vector<float> logits(kPolicySize, 1e30f);
  std::vector<MovePrior> priors;
  legal_move_priors(pos, logits, 1.0f, priors);
  for (const auto& p : priors) EXPECT_NEAR(p.prior, 0.05f, 1e-6);
  std::fill(logits.begin(), logits.end(), std::numeric_limits<float>::quiet_NaN());
  legal_move_priors(pos, logits, 1.0f, priors);
  for (const auto& p : priors) EXPECT_NEAR(p.prior, 0.05f, 1e-6);
}

TEST(PriorsTest, NoLegalMovesNoPriors) {
  const Position mated =
      Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR[] w KQkq - 1 3");
  std::vector<float> logits(kPolicySize, 0.0f);
  std::vector<MovePrior> priors = {{Move(), 1.0f}};
  legal_move_priors(mated, logits, 1.0f, priors);
  EXPECT_TRUE(priors.empty());
}

// The device path (slots, logits gathered where the network ran, softmax on the host) gives the
// host path's priors exactly, drops included.
TEST(PriorsTest, SlotsThenSoftmaxEqualsTheHostPath) {
  const Position pos =
      Position::from_fen("r1b1k2r/ppp2ppp/2n5/3qp3/1b1P4/2N2N2/PPP2PPP/R1BQKB1R[Pnp] w KQkq - 0 8");
  std::vector<float> logits(kPolicySize);
  for (int i = 0; i < kPolicySize; ++i) logits[i] = std::sin(0.37f * float(i)) * 4.0f;
  std::vector<MovePrior> host;
  legal_move_priors(pos, logits, 1.7f, host);

  std::vector<MovePrior> device;
  std::vector<std::int64_t> slots;
  legal_moves_and_slots(pos, device, slots);
  ASSERT_EQ(device.size(), slots.size());
  ASSERT_EQ(device.size(), host.size());
  bool drops = false;
  for (std::size_t j = 0; j < device.size(); ++j) {
    EXPECT_EQ(slots[j], policy_index(device[j].move, pos.side_to_move()));
    drops = drops || device[j].move.is_drop();
    device[j].prior = logits[slots[j]];  // what the GPU's gather hands back
  }
  EXPECT_TRUE(drops);
  softmax_priors(1.7f, device);
  for (std::size_t j = 0; j < host.size(); ++j) {
    EXPECT_EQ(device[j].move, host[j].move);
    EXPECT_EQ(device[j].prior, host[j].prior);
  }
}

}  // namespace
}  // namespace zh
