#include "engine/nn/backends/uniform.h"

#include <cassert>

#include "engine/nn/backends/builtin_backends.h"

namespace zh {

void UniformEvaluator::evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) {
  assert(inputs.size() == outputs.size());
  MoveList moves;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    Evaluation& out = outputs[i];
    out.value = 0.0f;
    out.priors.clear();
    inputs[i].position.legal_moves(moves);
    if (moves.empty()) continue;
    const float p = 1.0f / static_cast<float>(moves.size());
    out.priors.reserve(moves.size());
    for (Move m : moves) out.priors.push_back({m, p});
  }
}

BackendRegistration uniform_backend() {
  BackendRegistration b;
  b.name = "uniform";
  b.priority = 20;
  b.weightless = true;
  b.make = [](const EvaluatorConfig&, BackendOptions&) -> std::unique_ptr<Evaluator> {
    return std::make_unique<UniformEvaluator>();
  };
  return b;
}

}  // namespace zh
