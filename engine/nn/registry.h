#pragma once
// Picks an Evaluator backend by name. "uniform", "material" and "sim" (a simulated
// accelerator) are always built in; "torch"
// is provided by the optional zh_nn_torch library, which registers itself when a program
// links it (so code that never uses LibTorch does not pay for it).

#include <memory>
#include <string>
#include <vector>

#include "engine/nn/evaluator.h"

namespace zh {

// Filled from the evaluator options (engine/evaluator_loader.h), where the defaults live.
struct EvaluatorConfig {
  std::string backend;      // "uniform" | "material" | "sim" | "torch"
  std::string model_path;   // TorchScript file (torch only)
  std::string device;       // "cpu" | "cuda" | "cuda:N"
  std::string precision;    // "fp32" | "fp16" (cuda) | "bf16" (cpu)
  int threads;              // intra-op threads of the torch CPU backend
  float prior_temperature;  // softmax temperature over the legal moves' logits
  int max_batch = 0;        // the service's max_batch (the torch backend's CUDA buckets)
  // Settings of the backend itself, "key=value,...", read by the backend that takes them (the
  // sim backend's, engine/nn/backends/sim.h); empty for every other.
  std::string backend_options;
};

// Builds the backend named by config.backend. Throws std::runtime_error with a message that
// says what to change (unknown name, torch not built in, bad model file, bad device, ...).
std::unique_ptr<Evaluator> make_evaluator(const EvaluatorConfig& config);

// Names make_evaluator() accepts in this program, in a stable order.
std::vector<std::string> evaluator_backends();
// Whether make_evaluator() accepts `name` here ("torch" only where LibTorch is linked).
bool has_evaluator_backend(const std::string& name);

// For optional backend libraries: adds a backend factory under `name` (replacing any earlier
// one). Returns true so it can initialise a static registrar. (A backend factory builds one bare
// backend; engine/evaluator_loader.h builds the whole evaluator a command uses.)
using BackendFactory = std::unique_ptr<Evaluator> (*)(const EvaluatorConfig& config);
bool register_evaluator_backend(const std::string& name, BackendFactory factory);

}  // namespace zh
