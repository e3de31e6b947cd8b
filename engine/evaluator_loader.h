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

// What to do when the configured evaluator cannot be built (option `fallback`).
enum class EvaluatorFallback { kNone, kMaterial };

void declare_evaluator_options(Options& options);
EvaluatorConfig evaluator_config(const Options& options);
InferenceServiceConfig inference_service_config(const Options& options);
EvaluatorFallback evaluator_fallback(const Options& options);
// The configs as the declarations' defaults fill them (tests, tools).
EvaluatorConfig default_evaluator_config();
InferenceServiceConfig default_inference_service_config();
// GPU-sized values for the options the user did not set (Options::set_default) when the
// evaluator runs on a device (torch on cuda, sim): search threads 4, batch_size 32 leaves each,
// max_batch 256; the declared CPU defaults otherwise. Options not declared on `options` are
// skipped.
void apply_device_defaults(Options& options);
// The GPU default of an option whose default depends on the device (threads, batch_size,
// max_batch), or nullptr for any other option. The generated configuration leaves these out,
// so that each device gets its own default unless the operator pins one.
const char* gpu_default(std::string_view option_name);
// Text that changes whenever an option that needs a new evaluator changes.
std::string evaluator_signature(const Options& options);

// How a command treats an evaluator that cannot be built (missing, corrupt or wrong-format
// model, bad device): the daemon refuses to start unless `fallback: material` asks otherwise;
// the interactive commands (uci, analyse) always carry on with the material evaluator.
enum class EvaluatorLoad { kStrict, kFallback };
// The mode the daemon uses: strict unless the `fallback` option says material.
EvaluatorLoad daemon_evaluator_load(const Options& options);

// Thrown in strict mode; the message names the backend, the model file and the problem.
class EvaluatorConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LoadedEvaluator {
  std::shared_ptr<Evaluator> evaluator;
  // The batching service in front of the backend (null when the backend is called directly:
  // a weightless one, cheap and thread-safe, under kNetworksBatched).
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

// Who calls the backend. A network always goes behind an InferenceService (one batch stream
// for every search thread). The daemon puts the weightless backends there too: all its games
// then share one evaluation thread, which keeps several games from taking every core.
enum class EvaluatorSharing { kNetworksBatched, kAllBatched };

// Builds the evaluator the options describe (see EvaluatorLoad and EvaluatorSharing).
LoadedEvaluator load_evaluator(const Options& options, EvaluatorLoad mode,
                               EvaluatorSharing sharing = EvaluatorSharing::kNetworksBatched);

}  // namespace zh
