// "torch" in a program without the torch backend: the registry then says whether to rebuild
// or to relink. ZH_TORCH_BUILT is set for this file where the build has zh_nn_torch.

#include "engine/nn/backends/builtin_backends.h"

namespace zh {

BackendRegistration torch_backend_unlinked() {
  BackendRegistration b;
  b.name = "torch";
#if defined(ZH_TORCH_BUILT) && ZH_TORCH_BUILT
  b.unavailable =
      "the torch backend is built (library zh_nn_torch) but this program does not link it";
#else
  b.unavailable =
      "this build has no LibTorch support (configured with -DZH_WITH_TORCH=OFF); reconfigure "
      "with -DZH_WITH_TORCH=ON (needs libtorch-dev) or use backend \"uniform\" or \"material\"";
#endif
  return b;
}

}  // namespace zh
