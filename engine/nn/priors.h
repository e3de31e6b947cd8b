#pragma once
// Turns a policy head's raw logits into priors over the legal moves: the logits of the legal
// moves are gathered through the policy map and a softmax with temperature T is taken over
// them alone (T > 1 flattens, as CrazyAra's node temperature 1.7 does).

#include <span>
#include <vector>

#include "engine/chess/position.h"
#include "engine/nn/evaluator.h"

namespace zh {

// `logits` holds kPolicySize values in policy-map order for pos's side to move. Fills `out`
// with one prior per legal move (empty when there is none); the priors sum to 1.
void legal_move_priors(const Position& pos, std::span<const float> logits, float temperature,
                       std::vector<MovePrior>& out);

}  // namespace zh
