#pragma once
// The neural-network backend: a TorchScript model (LibTorch) on the CPU or a CUDA device.
// This header is free of LibTorch types (pointer to implementation), so code that uses the
// backend compiles without the torch headers; it lives in the optional zh_nn_torch library.
//
// Model format: forward(x) with x = [B,34,8,8] float (CrazyAra input v1.0, engine/nn/
// encoder.h) returns a tuple or list (value [B,1] in [-1,1] for the side to move, policy
// logits [B,5184] or [B,81,8,8] in policy-map order). An optional TorchScript extra file
// "zhbot.json" carries metadata ({"input_version": "1.0", "policy_format": ...,
// "architecture": ..., "training": ...}); a model declaring another input version is refused.

#include <functional>
#include <memory>
#include <span>
#include <string>

#include "engine/nn/evaluator.h"
#include "engine/nn/registry.h"

namespace zh {

struct TorchModelInfo {
  std::string path;
  std::string device;        // as resolved: "cpu", "cuda:0", ...
  std::string precision;     // as resolved ("auto" becomes one of these): fp32, fp16, bf16, int8
  std::string policy_shape;  // "[B,5184]" or "[B,81,8,8]"
  std::string metadata;      // the zhbot.json text, empty when the file has none
  std::string optimization;  // what was applied: "optimize_for_inference", "freeze", "none"
  std::string buckets;       // batch sizes on CUDA ("1,2,4,...,max_batch"), "none (CPU)"
  int threads = 1;           // intra-op threads (CPU)
  double load_seconds = 0.0;
};

// Where precision int8 looks for the int8 version of an fp32 model file: beside it, "-int8"
// added to its stem (models/zhbot-net-2.pt -> models/zhbot-net-2-int8.pt).
std::string int8_model_path(const std::string& path);

class TorchEvaluator final : public Evaluator {
 public:
  // Loads and checks the model (a dummy batch must give the expected shapes). Throws
  // std::runtime_error naming the file and, for shape problems, the shape found and expected.
  explicit TorchEvaluator(const EvaluatorConfig& config);
  ~TorchEvaluator() override;
  TorchEvaluator(const TorchEvaluator&) = delete;
  TorchEvaluator& operator=(const TorchEvaluator&) = delete;

  std::string name() const override { return "torch"; }
  // Encodes the batch, runs one forward pass, softmaxes the legal moves' logits. Safe to call
  // from several threads (each call has its own tensors), though sharing one evaluator
  // through an InferenceService batches better.
  void evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) override;

  const TorchModelInfo& info() const;

  // For benchmarks: returns a callable that runs the forward pass alone on a batch prepared
  // once (`batch` positions; `planes` holds kInputSize floats repeated for every row, or
  // batch * kInputSize floats), already on the device in the model's precision. On CUDA the
  // callable waits for the device to finish, so wall time measures the work.
  std::function<void()> make_raw_forward(std::span<const float> planes, int batch) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace zh
