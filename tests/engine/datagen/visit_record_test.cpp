// Self-play records: the policy target is the search's visit distribution.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "engine/datagen/labelling.h"
#include "engine/nn/policy_map.h"

namespace zh::datagen {
namespace {

TEST(VisitRecord, ThePolicyTargetIsTheVisitShareOfTheMostVisitedMoves) {
  const Position pos;
  const MoveList legal = pos.legal_moves();
  std::vector<VisitedMove> moves;
  for (int i = 0; i < 10; ++i) moves.push_back({legal[i], std::uint32_t(i + 1)});  // 1..10
  const Record r = make_visit_record(EvalInput{pos}, 0, 7, moves, 0.0f);
  ASSERT_EQ(r.pv_count, kPolicySlots);
  // The 8 most visited (10 down to 3, 52 visits), most visited first.
  EXPECT_EQ(r.policy_index[0], policy_index(legal[9], pos.side_to_move()));
  EXPECT_FLOAT_EQ(r.policy_prob[0], 10.0f / 52.0f);
  EXPECT_FLOAT_EQ(r.policy_prob[7], 3.0f / 52.0f);
  float sum = 0;
  for (float p : r.policy_prob) sum += p;
  EXPECT_NEAR(sum, 1.0f, 1e-6);
  EXPECT_EQ(r.game_id, 7u);
  EXPECT_EQ(fen_of(r), pos.fen());
}

TEST(VisitRecord, NeedsAVisitedMove) {
  EXPECT_THROW(make_visit_record(EvalInput{}, 0, 1, {}, 0.0f), std::logic_error);
}

}  // namespace
}  // namespace zh::datagen
