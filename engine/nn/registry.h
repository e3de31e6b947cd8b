#pragma once
// The evaluator backends this program can build, by name. The registry knows none of them:
// each backend registers itself (engine/nn/backends/*_registration.cpp) with its name, its
// priority, the function that parses its settings and builds it, and what the loader must know
// of it (weightless, on a device, a CPU stand-in for failover). Failover and the spread over
// several devices wrap any backend (engine/evaluator_loader.cpp).
//
// How backends get here cannot lose one: the built-in backends are registered by one explicit
// list (engine/nn/backends/builtin_backends.cpp) on the registry's first use; an optional
// backend library (zh_nn_torch) registers from a static initialiser that its link interface
// forces into every program linking it (-u), so an archive cannot drop it.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/nn/backend_options.h"
#include "engine/nn/evaluator.h"

namespace zh {

// Filled from the evaluator options (engine/evaluator_loader.h), where the defaults live.
struct EvaluatorConfig {
  std::string backend;      // a registered backend's name, or "auto" (the highest priority)
  std::string device;       // "cpu" | "cuda" | "cuda:N"
  float prior_temperature;  // softmax temperature over the legal moves' logits
  // The evaluator's network options by name, as text (model, precision, nn_threads,
  // max_batch): each backend reads those it takes and ignores the others.
  std::map<std::string, std::string, std::less<>> settings;
  // The backend's own settings, "key=value,..."; its parser must take every one.
  std::string backend_options;

  // settings[key], or "" when absent.
  std::string setting(std::string_view key) const;
};

struct BackendRegistration {
  std::string name;
  // The highest-priority backend available is `auto` and the option's default.
  int priority = 0;
  // Builds one backend for `config`, its own settings parsed from `own`; throws with a message
  // that says what to change. Empty for a backend this build knows but cannot build.
  std::function<std::unique_ptr<Evaluator>(const EvaluatorConfig& config, BackendOptions& own)>
      make;
  // Why `make` is empty, and what to do about it (rebuild, relink).
  std::string unavailable;
  // Cheap and thread-safe without weights: called directly, without a batching service,
  // unless a program wants all its games on one evaluation thread.
  bool weightless = false;
  // Whether `config` runs it on an accelerator, which can fail while running (failover
  // applies) and wants device-sized batches. Empty: never.
  std::function<bool(const EvaluatorConfig& config)> on_device;
  // The same evaluator on the CPU, the failover's first choice while the device is down.
  // Empty, or nullopt: none (the material evaluator steps in).
  std::function<std::optional<EvaluatorConfig>(const EvaluatorConfig& config)> on_cpu;
};

// Adds a backend (replacing any earlier one of its name). Returns true so that it can
// initialise a static registrar.
bool register_evaluator_backend(BackendRegistration backend);

// Names make_evaluator() accepts in this program (not "auto"), highest priority first.
std::vector<std::string> evaluator_backends();
// Whether make_evaluator() accepts `name` here ("torch" only where LibTorch is linked).
bool has_evaluator_backend(const std::string& name);
// `name`, or for "auto" the highest-priority backend available.
std::string resolve_evaluator_backend(const std::string& name);
// The registration of `name` (after resolving "auto"), available or not; nullopt if unknown.
std::optional<BackendRegistration> find_evaluator_backend(const std::string& name);

// Builds the backend named by config.backend. Throws std::runtime_error with a message that
// says what to change (unknown name, torch not built in, a bad setting, bad model file, ...).
std::unique_ptr<Evaluator> make_evaluator(const EvaluatorConfig& config);

// What the loader asks of a configured backend (false or nullopt for an unknown one).
bool evaluator_is_weightless(const EvaluatorConfig& config);
bool evaluator_on_device(const EvaluatorConfig& config);
std::optional<EvaluatorConfig> evaluator_on_cpu(const EvaluatorConfig& config);

}  // namespace zh
