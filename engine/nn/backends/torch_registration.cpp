// Registers "torch" (replacing the registry's note that it is not linked) in every program that
// links zh_nn_torch, with its parser and what the loader must know of it. The library's link
// interface asks the linker for the symbol below (-u), which pulls this object out of the static
// archive so its registrar runs before main(); tests check the backend is there.

#include "engine/nn/backends/torch_evaluator.h"
#include "engine/nn/registry.h"

namespace zh {
namespace {

bool on_cuda(const EvaluatorConfig& config) { return config.device.rfind("cuda", 0) == 0; }

BackendRegistration torch_backend() {
  BackendRegistration b;
  b.name = "torch";
  b.priority = 40;  // the network: the default wherever it is linked
  b.make = [](const EvaluatorConfig& config, BackendOptions& own) -> std::unique_ptr<Evaluator> {
    return make_torch_evaluator(torch_config_of(config, own));
  };
  b.on_device = on_cuda;
  // While a GPU is down, the same network on the CPU at the CPU's precision.
  b.on_cpu = [](const EvaluatorConfig& config) -> std::optional<EvaluatorConfig> {
    if (!on_cuda(config)) return std::nullopt;
    EvaluatorConfig cpu = config;
    cpu.device = "cpu";
    cpu.settings["precision"] = "auto";
    return cpu;
  };
  return b;
}

}  // namespace

}  // namespace zh

extern "C" {
// NOLINTNEXTLINE: a plain C symbol so the linker flag can name it.
bool zh_nn_torch_registered = zh::register_evaluator_backend(zh::torch_backend());
}
