#include "engine/nn/registry.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>

#include "engine/nn/backends/material.h"
#include "engine/nn/backends/sim.h"
#include "engine/nn/backends/uniform.h"

namespace zh {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, BackendFactory> factories;
};

// Function-local static: safe to use from other libraries' static initialisers.
Registry& registry() {
  static Registry* instance = [] {
    auto* r = new Registry;  // never destroyed: registrars may run during static teardown
    r->factories["uniform"] = [](const EvaluatorConfig&) -> std::unique_ptr<Evaluator> {
      return std::make_unique<UniformEvaluator>();
    };
    r->factories["material"] = [](const EvaluatorConfig& config) -> std::unique_ptr<Evaluator> {
      return std::make_unique<MaterialEvaluator>(config.prior_temperature);
    };
    r->factories["sim"] = [](const EvaluatorConfig& config) -> std::unique_ptr<Evaluator> {
      return std::make_unique<SimEvaluator>(parse_sim_options(config.backend_options));
    };
    return r;
  }();
  return *instance;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Why "torch" is missing, so the user knows whether to rebuild or to relink.
std::string torch_missing_reason() {
#if defined(ZH_TORCH_BUILT) && ZH_TORCH_BUILT
  return "the torch backend is built (library zh_nn_torch) but this program does not link it";
#else
  return "this build has no LibTorch support (configured with -DZH_WITH_TORCH=OFF); "
         "reconfigure with -DZH_WITH_TORCH=ON (needs libtorch-dev) or use backend "
         "\"uniform\" or \"material\"";
#endif
}

}  // namespace

bool register_evaluator_backend(const std::string& name, BackendFactory factory) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.factories[name] = factory;
  return true;
}

std::vector<std::string> evaluator_backends() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  // Built-in fallbacks first, then the optional ones alphabetically.
  std::vector<std::string> names = {"uniform", "material"};
  for (const auto& [name, factory] : r.factories)
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  return names;
}

bool has_evaluator_backend(const std::string& name) {
  const std::vector<std::string> names = evaluator_backends();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::unique_ptr<Evaluator> make_evaluator(const EvaluatorConfig& config) {
  if (config.prior_temperature <= 0.0f)
    throw std::runtime_error("prior temperature must be > 0 (got " +
                             std::to_string(config.prior_temperature) + ")");
  BackendFactory factory = nullptr;
  {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    auto it = r.factories.find(config.backend);
    if (it != r.factories.end()) factory = it->second;
  }
  if (factory == nullptr) {
    if (config.backend == "torch")
      throw std::runtime_error("evaluator backend \"torch\": " + torch_missing_reason());
    throw std::runtime_error("unknown evaluator backend \"" + config.backend +
                             "\"; available: " + join(evaluator_backends()));
  }
  // Only the sim backend has settings of its own: a setting given to another is a mistake.
  if (!config.backend_options.empty() && config.backend != "sim")
    throw std::runtime_error("evaluator backend \"" + config.backend +
                             "\" takes no backend_options (got \"" + config.backend_options +
                             "\")");
  return factory(config);
}

}  // namespace zh
