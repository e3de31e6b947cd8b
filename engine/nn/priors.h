#pragma once
// Turns a policy head's raw logits into priors over the legal moves: the logits of the legal
// moves are gathered through the policy map and a softmax with temperature T is taken over
// them alone (T > 1 flattens, as CrazyAra's node temperature 1.7 does).

#include <cstdint>
#include <span>
#include <vector>

#include "engine/chess/position.h"
#include "engine/nn/evaluator.h"

namespace zh {

// `logits` holds kPolicySize values in policy-map order for pos's side to move. Fills `out`
// with one prior per legal move (empty when there is none); the priors sum to 1.
void legal_move_priors(const Position& pos, std::span<const float> logits, float temperature,
                       std::vector<MovePrior>& out);

// The two halves of legal_move_priors, for a backend that gathers the legal moves' logits where
// the network ran and copies back only those (a GPU: 5 184 logits a position would cross PCIe
// for the few dozen that are read).
// Fills `out` with pos's legal moves (priors unset) and `slots` with each one's policy-map index.
void legal_moves_and_slots(const Position& pos, std::vector<MovePrior>& out,
                           std::vector<std::int64_t>& slots);
// `out[j].prior` holds move j's logit on entry and its prior on return (softmax at T).
void softmax_priors(float temperature, std::vector<MovePrior>& out);

}  // namespace zh
