#pragma once
// The evaluator's options (backend, model, device, ...) declared with the typed option
// system, and the EvaluatorConfig they describe.

#include <string>

#include "engine/nn/registry.h"
#include "engine/options.h"

namespace zh {

void declare_evaluator_options(Options& options);
EvaluatorConfig evaluator_config(const Options& options);
// Text that changes whenever an option that needs a new evaluator changes.
std::string evaluator_signature(const Options& options);

}  // namespace zh
