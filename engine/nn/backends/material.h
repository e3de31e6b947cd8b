#pragma once
// A hand-written evaluator that needs no weights: material on the board and in the pockets
// plus a crude king-danger term, squashed to [-1, 1]; priors that favour checks, captures,
// promotions and drops next to the enemy king. It is WEAK (a few hundred Elo at best) and
// exists as a fallback when no network is available and as a sanity baseline for the
// search. Stateless, so safe to call from many threads.

#include "engine/nn/evaluator.h"

namespace zh {

class MaterialEvaluator final : public Evaluator {
 public:
  // prior_temperature > 0 flattens (> 1) or sharpens (< 1) the move preferences.
  explicit MaterialEvaluator(float prior_temperature = 1.0f);
  std::string name() const override { return "material"; }
  void evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) override;

  // The value alone, for the side to move (exposed for tests).
  static float value_of(const Position& pos);

 private:
  float inv_temperature_;
};

}  // namespace zh
