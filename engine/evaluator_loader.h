#pragma once
// The evaluator loader: the evaluator's options (backend, model, device, batching, fallback),
// each declared once with its default, and load_evaluator(), which builds the evaluator they
// describe (a backend from the registry, behind an InferenceService) for every command.

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/nn/failover_evaluator.h"
#include "engine/nn/inference_service.h"
#include "engine/nn/registry.h"
#include "engine/options.h"

namespace zh {

void declare_evaluator_options(Options& options);
EvaluatorConfig evaluator_config(const Options& options);
InferenceServiceConfig inference_service_config(const Options& options);
// The configs as the declarations' defaults fill them (tests, tools).
EvaluatorConfig default_evaluator_config();
InferenceServiceConfig default_inference_service_config();
// Text that changes whenever an option that needs a new evaluator changes.
std::string evaluator_signature(const Options& options);

// The defaults the evaluator's device gives the options it sizes: search threads 4, batch_size
// 32 leaves each, batches_per_thread 2 and max_batch 256 on a device (torch on cuda, sim), the
// declared CPU defaults otherwise; and the batches the inference service runs at once (2 on a
// device, so the host prepares one while the device runs the other; 1 on the CPU). An option
// the operator set keeps its value.
class DeviceProfile {
 public:
  static DeviceProfile cpu() { return DeviceProfile(false); }
  static DeviceProfile gpu() { return DeviceProfile(true); }
  static DeviceProfile of(const EvaluatorConfig& config);
  static DeviceProfile of(const Options& options) { return of(evaluator_config(options)); }

  // A device that can fail while running (not the CPU): failover applies.
  bool on_device() const { return on_device_; }
  int batches_in_flight() const { return on_device_ ? 2 : 1; }
  // This profile's default of `option`, or nullptr where the declared default stands (every
  // option on the CPU). The generated configuration leaves the device-sized options out, so
  // that each device gets its own default unless the operator pins one.
  const char* default_of(std::string_view option) const;
  // Sets the profile's defaults (Options::set_default); options `options` lacks are skipped.
  void apply(Options& options) const;

 private:
  explicit DeviceProfile(bool on_device) : on_device_(on_device) {}
  bool on_device_;
};

// How a program loads its evaluator.
struct LoadPolicy {
  // When the evaluator cannot be built (a missing, corrupt or wrong-format model, a bad device):
  // false stops with EvaluatorConfigError naming the problem; true plays on with the material
  // evaluator after a loud warning.
  bool fall_back = false;
  // A network always goes behind an InferenceService (one batch stream for every search
  // thread); true puts the weightless backends there too, so that all of a daemon's games share
  // one evaluation thread and several games cannot take every core.
  bool batch_weightless = false;

  // uci and analyse: always play, with the material evaluator if need be.
  static LoadPolicy interactive() { return {true, false}; }
  // selfplay and the tests: what was asked, or stop.
  static LoadPolicy exact() { return {false, false}; }
  // `zhbot run`: stops unless the `fallback` option says material; every backend batched.
  static LoadPolicy daemon(const Options& options);
};

// Thrown when LoadPolicy::fall_back is false; the message names the backend, the model file
// and the problem.
class EvaluatorConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LoadedEvaluator {
  std::shared_ptr<Evaluator> evaluator;
  // The batching service in front of the backend (null when the backend is called directly:
  // a weightless one, cheap and thread-safe, where LoadPolicy::batch_weightless is false).
  std::shared_ptr<InferenceService> service;
  // Every device's service (service is the first); one for a single device.
  std::vector<std::shared_ptr<InferenceService>> services;
  // The services' figures together (empty figures when there is none).
  InferenceStats service_stats() const;
  // In front of the service when the backend runs on a device (cuda, sim) and `failover` is on:
  // the evaluator the games use, and the health flag the bot polls. Null otherwise.
  std::shared_ptr<FailoverEvaluator> failover;
  std::string backend;  // the backend actually loaded ("material" after a fallback)
  // Loud warnings for the user (a fallback); the caller shows them where the user looks.
  std::vector<std::string> warnings;
};

// Builds the evaluator the options describe, on the device profile's defaults, as `policy` says.
LoadedEvaluator load_evaluator(const Options& options, LoadPolicy policy);

}  // namespace zh
