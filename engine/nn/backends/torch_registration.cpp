// Makes "torch" available through make_evaluator() in every program that links zh_nn_torch.
// The library's link interface asks the linker for the symbol below (-u), which pulls this
// object out of the static archive so its registrar runs before main().

#include "engine/nn/backends/torch_evaluator.h"
#include "engine/nn/registry.h"

namespace {

std::unique_ptr<zh::Evaluator> make_torch_evaluator(const zh::EvaluatorConfig& config) {
  return std::make_unique<zh::TorchEvaluator>(config);
}

}  // namespace

extern "C" {
// NOLINTNEXTLINE: a plain C symbol so the linker flag can name it.
bool zh_nn_torch_registered = zh::register_evaluator_backend("torch", &make_torch_evaluator);
}
