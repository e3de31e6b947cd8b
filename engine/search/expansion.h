#pragma once
// Turns a network evaluation into the EvalBlock the tree stores: check enhancement (eq. 12),
// edges sorted by prior, priors in half precision; and a mate proof into the block's mate
// (the mate searches replace the mate-in-one look-ahead of paper 9.2.7). Pure functions of the
// position, the evaluation and the proof; called outside the tree lock.

#include <cstdint>
#include <vector>

#include "engine/chess/position.h"
#include "engine/nn/evaluator.h"
#include "engine/search/mate_search.h"
#include "engine/search/node.h"

namespace zh {

struct ExpansionOptions {
  bool check_enhancement = true;
  double check_threshold = 0.1;
  double check_factor = 0.5;
};

// Applies eq. (12) in place: priors of checking moves below `threshold` get
// `factor * max prior` added, then all priors are renormalised to sum to 1.
void enhance_checks(std::vector<float>& priors, const std::vector<std::uint8_t>& is_check,
                    double threshold, double factor);

// Builds the block (refcount 1). An evaluation with no priors is a terminal position.
EvalBlock* make_eval_block(const Position& pos, const Evaluation& eval,
                           const ExpansionOptions& options);

// Records a proven mate (its first move must be one of the block's moves) in the block.
void attach_mate(EvalBlock& block, const MateProof& proof);

// The block of a position whose mate was proven before any network call: every legal move at
// a uniform prior, the mating move first, value 1, not `evaluated`.
EvalBlock* make_proven_block(const Position& pos, const MateProof& proof);

// Whether the block's edges are exactly the legal moves of `pos`, in any order. A block that
// fails this belongs to another position: an evaluator that answered for the wrong input, or a
// tree node that is not the position the game reached. One move generation: cheap once a search
// (the root), too dear for every expansion.
bool block_matches_position(const EvalBlock& block, const Position& pos);

}  // namespace zh
