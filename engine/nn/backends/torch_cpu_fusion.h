#pragma once

// TorchScript's switch for kernel fusion on the CPU. Declared in
// torch/csrc/jit/codegen/fuser/interface.h, which Debian's libtorch-dev does not ship;
// libtorch_cpu exports both functions in 1.13 and 2.6 alike (a LibTorch without them fails the
// link, not the run).
#include <torch/script.h>

namespace torch::jit {
TORCH_API bool canFuseOnCPU();
TORCH_API void overrideCanFuseOnCPU(bool value);
}  // namespace torch::jit
