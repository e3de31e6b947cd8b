#pragma once
// The backends built into zh_engine, each defined beside its evaluator, and the one list the
// registry takes them from on its first use.

#include <vector>

#include "engine/nn/registry.h"

namespace zh {

BackendRegistration uniform_backend();
BackendRegistration material_backend();
BackendRegistration sim_backend();
// "torch" where this program has not linked zh_nn_torch: known, with the reason it is missing
// (not built, or not linked); linking zh_nn_torch replaces it with the real one.
BackendRegistration torch_backend_unlinked();

std::vector<BackendRegistration> builtin_backends();

}  // namespace zh
