#pragma once
// The no-knowledge evaluator: value 0 and the same prior for every legal move. For tests
// (deterministic, instant) and as a baseline. Stateless, so safe to call from many threads.

#include "engine/nn/evaluator.h"

namespace zh {

class UniformEvaluator final : public Evaluator {
 public:
  std::string name() const override { return "uniform"; }
  void evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) override;
};

}  // namespace zh
