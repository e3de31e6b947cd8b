#include "engine/nn/registry.h"

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include "engine/nn/backends/builtin_backends.h"

namespace zh {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, BackendRegistration, std::less<>> backends;
};

// Function-local static: safe to use from other libraries' static initialisers. The built-in
// backends come from one explicit list, so none depends on the linker keeping an object file.
Registry& registry() {
  static Registry* instance = [] {
    auto* r = new Registry;  // never destroyed: registrars may run during static teardown
    for (BackendRegistration& b : builtin_backends()) r->backends[b.name] = std::move(b);
    return r;
  }();
  return *instance;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::string EvaluatorConfig::setting(std::string_view key) const {
  const auto it = settings.find(key);
  return it == settings.end() ? std::string() : it->second;
}

bool register_evaluator_backend(BackendRegistration backend) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.backends[backend.name] = std::move(backend);
  return true;
}

std::vector<std::string> evaluator_backends() {
  std::vector<std::pair<int, std::string>> ranked;
  {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    for (const auto& [name, b] : r.backends)
      if (b.make) ranked.emplace_back(-b.priority, name);
  }
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::string> names;
  for (auto& [priority, name] : ranked) names.push_back(std::move(name));
  return names;
}

bool has_evaluator_backend(const std::string& name) {
  const std::vector<std::string> names = evaluator_backends();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string resolve_evaluator_backend(const std::string& name) {
  if (name != "auto") return name;
  const std::vector<std::string> names = evaluator_backends();
  if (names.empty()) throw std::runtime_error("no evaluator backend is registered");
  return names.front();
}

std::optional<BackendRegistration> find_evaluator_backend(const std::string& name) {
  const std::string resolved = resolve_evaluator_backend(name);
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.backends.find(resolved);
  if (it == r.backends.end()) return std::nullopt;
  return it->second;
}

std::unique_ptr<Evaluator> make_evaluator(const EvaluatorConfig& given) {
  if (given.prior_temperature <= 0.0f)
    throw std::runtime_error("prior temperature must be > 0 (got " +
                             std::to_string(given.prior_temperature) + ")");
  EvaluatorConfig config = given;
  config.backend = resolve_evaluator_backend(given.backend);
  const std::optional<BackendRegistration> backend = find_evaluator_backend(config.backend);
  if (!backend)
    throw std::runtime_error("unknown evaluator backend \"" + config.backend +
                             "\"; available: " + join(evaluator_backends()));
  if (!backend->make)
    throw std::runtime_error("evaluator backend \"" + config.backend +
                             "\": " + backend->unavailable);
  try {
    BackendOptions own(config.backend, config.backend_options);
    std::unique_ptr<Evaluator> evaluator = backend->make(config, own);
    own.check_all_taken();
    return evaluator;
  } catch (const std::invalid_argument& e) {  // a bad setting: the operator's to change
    throw std::runtime_error(e.what());
  }
}

bool evaluator_is_weightless(const EvaluatorConfig& config) {
  const std::optional<BackendRegistration> b = find_evaluator_backend(config.backend);
  return b && b->weightless;
}

bool evaluator_on_device(const EvaluatorConfig& config) {
  const std::optional<BackendRegistration> b = find_evaluator_backend(config.backend);
  return b && b->on_device && b->on_device(config);
}

std::optional<EvaluatorConfig> evaluator_on_cpu(const EvaluatorConfig& config) {
  const std::optional<BackendRegistration> b = find_evaluator_backend(config.backend);
  if (!b || !b->on_cpu) return std::nullopt;
  return b->on_cpu(config);
}

}  // namespace zh
