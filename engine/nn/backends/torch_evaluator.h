#pragma once
// The neural-network backend: a TorchScript model (LibTorch) on the CPU or a CUDA device.
// This header is free of LibTorch types (pointer to implementation), so code that uses the
// backend compiles without the torch headers; it lives in the optional zh_nn_torch library.
//
// Model format: forward(x) with x = [B,P,8,8] float (P = 34: CrazyAra input v1.0; P = 46:
// format 2.0; engine/nn/input_format.h, as zhbot.json's input_version says) returns a tuple or list
// (value [B,1] in [-1,1] for the side to move, policy logits [B,5184] or [B,81,8,8] in policy-map
// order). An optional TorchScript extra file "zhbot.json" carries metadata ({"input_version":
// "1.0", "policy_format": ..., "architecture": ..., "training": ...}); a model declaring an unknown
// input version, or one whose first convolution takes another plane count than its declared format,
// is refused.

#include <functional>
#include <memory>
#include <span>
#include <string>

#include "engine/nn/evaluator.h"
#include "engine/nn/input_format.h"
#include "engine/nn/registry.h"

namespace zh {

// The torch backend's settings.
struct TorchConfig {
  std::string model_path;          // TorchScript file: a path or a bare name (model_path.h)
  std::string device = "cpu";      // "cpu" | "cuda" | "cuda:N"
  std::string precision = "auto";  // "auto" | "fp32" | "fp16" (cuda) | "bf16" (cpu) | "int8" (cpu)
  int threads = 1;                 // intra-op threads on the CPU
  float prior_temperature = 1.0f;  // softmax temperature over the legal moves' logits
  int max_batch = 0;               // the largest batch it will see (its CUDA buckets)
  // The network's memory layout (backend_options layout=...): "auto" (channels-last for bf16 on
  // the CPU, NCHW elsewhere), "nchw" or "channels-last".
  std::string layout = "auto";
  bool log_load = true;  // false: the "nn: loaded" line at debug level (a trial load)
};

// Its parser: the evaluator's model, device, precision, nn_threads, prior_temperature and
// max_batch, and one backend option, layout. Throws std::invalid_argument for a number that is
// not one, a layout it does not know, or any other backend option.
TorchConfig torch_config_of(const EvaluatorConfig& config, BackendOptions& own);

struct TorchModelInfo {
  std::string path;
  std::string device;        // as resolved: "cpu", "cuda:0", ...
  std::string precision;     // as resolved ("auto" becomes one of these): fp32, fp16, bf16, int8
  std::string policy_shape;  // "[B,5184]" or "[B,81,8,8]"
  std::string input;         // the input format it takes: "format 1.0 (34 planes)"
  std::string metadata;      // the zhbot.json text, empty when the file has none
  // What was applied: "optimize_for_inference", "freeze" or "none", then ", channels-last"
  // where the network runs in that layout.
  std::string optimization;
  std::string buckets;  // batch sizes on CUDA ("1,2,4,...,max_batch"), "none (CPU)"
  int threads = 1;      // intra-op threads (CPU)
  double load_seconds = 0.0;
};

// Where precision int8 looks for the int8 version of an fp32 model file: beside it, "-int8"
// added to its stem (models/zhbot-net-2.pt -> models/zhbot-net-2-int8.pt).
std::string int8_model_path(const std::string& path);

// The evaluator for a configuration: precision "auto" on the CPU is measured, the static
// rule's choice (precision.h) against every other precision this CPU and model allow, a batch of
// 16 timed in each, and choose_measured_precision keeps one; the choice is kept for the
// process (per model, device and thread count), and logged with its figures. Anything else:
// TorchEvaluator(config).
std::unique_ptr<class TorchEvaluator> make_torch_evaluator(const TorchConfig& config);

class TorchEvaluator final : public Evaluator {
 public:
  // Loads and checks the model (a dummy batch must give the expected shapes). Throws
  // std::runtime_error naming the file and, for shape problems, the shape found and expected.
  explicit TorchEvaluator(const TorchConfig& config);
  ~TorchEvaluator() override;
  TorchEvaluator(const TorchEvaluator&) = delete;
  TorchEvaluator& operator=(const TorchEvaluator&) = delete;

  std::string name() const override { return "torch"; }
  // Encodes the batch, runs one forward pass, softmaxes the legal moves' logits. Safe to call
  // from several threads (each call has its own tensors), though sharing one evaluator
  // through an InferenceService batches better.
  void evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) override;

  const TorchModelInfo& info() const;
  // The "nn: loaded ..." line: the file, device, precision (with `requested` where it differs),
  // threads, optimization, policy shape, buckets, load time and metadata.
  std::string load_line(const std::string& requested) const;
  InputFormat input_format() const;  // as its metadata declares

  // For benchmarks: returns a callable that runs the forward pass alone on a batch prepared
  // once (`batch` positions; `planes` holds one position's planes in the model's input format,
  // repeated for every row, or `batch` positions'), already on the device in the model's precision.
  // On CUDA the callable waits for the device to finish, so wall time measures the work.
  std::function<void()> make_raw_forward(std::span<const float> planes, int batch) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace zh
