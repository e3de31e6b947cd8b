#include "engine/nn/backends/builtin_backends.h"

namespace zh {

std::vector<BackendRegistration> builtin_backends() {
  return {uniform_backend(), material_backend(), sim_backend(), torch_backend_unlinked()};
}

}  // namespace zh
