#include "engine/nn/backends/torch_evaluator.h"

#include <torch/cuda.h>
#include <torch/script.h>
#include <torch/version.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "engine/log.h"
#include "engine/nn/backends/torch_model_file.h"
#include "engine/nn/backends/torch_runtime.h"
#include "engine/nn/batch_buckets.h"
#include "engine/nn/encoder.h"
#include "engine/nn/model_path.h"
#include "engine/nn/policy_map.h"
#include "engine/nn/precision.h"
#include "engine/nn/priors.h"
#include "engine/util/clock.h"

namespace zh {
namespace {

constexpr int kCheckBatch = 2;  // > 1 so a model that ignores the batch dimension shows it

}  // namespace

// Host input buffers, allocated once and reused: each call encodes straight into one (pinned
// memory on CUDA, so the copy to the device runs asynchronously), and several calls at once
// (the InferenceService's batches in flight) each take their own.
class HostBuffers {
 public:
  void init(int rows, int planes, bool pinned) {
    rows_ = rows;
    planes_ = planes;
    pinned_ = pinned;
  }
  // A buffer of rows_ rows, or null when `rows` is more than that (the caller allocates).
  at::Tensor* acquire(int rows) {
    if (rows > rows_) return nullptr;
    std::lock_guard lock(mutex_);
    if (free_.empty()) {
      all_.push_back(std::make_unique<at::Tensor>(
          torch::empty({rows_, planes_, 8, 8}, torch::TensorOptions().pinned_memory(pinned_))));
      return all_.back().get();
    }
    at::Tensor* t = free_.back();
    free_.pop_back();
    return t;
  }
  void release(at::Tensor* t) {
    if (!t) return;
    std::lock_guard lock(mutex_);
    free_.push_back(t);
  }

 private:
  int rows_ = 0;
  int planes_ = kInputPlanes;
  bool pinned_ = false;
  std::mutex mutex_;
  std::vector<std::unique_ptr<at::Tensor>> all_;
  std::vector<at::Tensor*> free_;
};

struct TorchEvaluator::Impl {
  mutable torch::jit::Module module;
  torch::Device device{torch::kCPU};
  c10::ScalarType dtype = torch::kFloat;
  float temperature = 1.0f;
  TorchModelInfo info;
  InputFormat format = InputFormat::kV1;  // from the metadata's input_version
  std::vector<int> buckets;               // batch sizes run on CUDA (padded up); empty on the CPU
  // The layout the network's convolutions take their input and weights in (see
  // choose_layout).
  at::MemoryFormat layout = at::MemoryFormat::Contiguous;
  HostBuffers buffers;

  // An encoded CPU batch as the network takes it: on its device, in its precision and layout.
  // From pinned memory the copy to a GPU is asynchronous; the caller's copy of the results back
  // waits for it (same stream), so the buffer is free again once evaluate() has its results.
  at::Tensor network_input(const at::Tensor& cpu_input) const {
    at::Tensor x = cpu_input;
    if (device.is_cuda()) x = x.to(device, /*non_blocking=*/true);
    if (dtype != torch::kFloat) x = x.to(dtype);
    if (layout != at::MemoryFormat::Contiguous) x = x.contiguous(layout);
    return x;
  }

  // One forward pass on an encoded CPU batch; returns the heads, still on the device.
  Heads forward(const at::Tensor& cpu_input) const {
    use_threads_on_this_thread(info.threads);
    std::vector<c10::IValue> args{network_input(cpu_input)};
    return split_outputs(module.forward(std::move(args)), info.path);
  }

  // The layout (TorchConfig::layout). `auto` is channels-last for bf16 on the CPU: oneDNN's bf16
  // convolutions work on channels-last (NHWC) data, and with LibTorch's default NCHW tensors
  // every convolution reorders its output back to NCHW (half of the convolutions' time in a
  // profile of a search). With the weights and the input in channels-last the network's outputs
  // are the same and a batch of 16 runs about 1.5x as fast (docs/performance.md, "bf16 in
  // channels-last"). `auto` keeps NCHW elsewhere: fp32 on the CPU is unaffected
  // (optimize_for_inference prepacks its convolutions), int8 reorders inside its quantized
  // kernels, and on CUDA the gain is not measured; `layout=channels-last` measures it there.
  void choose_layout(const std::string& requested) {
    const bool channels_last =
        requested == "channels-last" ||
        (requested == "auto" && !device.is_cuda() && dtype == torch::kBFloat16);
    if (!channels_last) return;
    for (at::Tensor p : module.parameters())
      if (p.dim() == 4) p.set_data(p.contiguous(at::MemoryFormat::ChannelsLast));
    layout = at::MemoryFormat::ChannelsLast;
  }

  // Runs a start-position batch through `candidate` and checks the output shapes.
  void check(torch::jit::Module& candidate, const std::string& stage) {
    const int n = input_planes(format);
    std::vector<float> planes(std::size_t(kCheckBatch * input_size(format)));
    const std::vector<EvalInput> inputs(kCheckBatch, EvalInput{Position(), 0});
    encode_batch(inputs, planes, format);
    const at::Tensor x = network_input(torch::from_blob(planes.data(), {kCheckBatch, n, 8, 8}));
    c10::IValue out;
    try {
      c10::InferenceMode guard;
      out = candidate.forward({x});
    } catch (const std::exception& e) {
      std::string msg = "fails on a dummy input [" + std::to_string(kCheckBatch) + "," +
                        std::to_string(n) + ",8,8] (" + stage + "): " + torch_message(e);
      const int64_t planes_in = first_conv_planes(candidate);
      if (planes_in > 0 && planes_in != n)
        msg = "takes input [B," + std::to_string(planes_in) +
              ",8,8] (its first convolution takes " + std::to_string(planes_in) +
              " planes), but its metadata says input " + describe(format) +
              ", which zhbot feeds as [B," + std::to_string(n) + ",8,8]";
      throw model_error(info.path, msg);
    }
    const Heads heads = split_outputs(out, info.path);
    if (!value_shape_ok(heads.value, kCheckBatch) || !policy_shape_ok(heads.policy, kCheckBatch))
      throw model_error(info.path, "returns value " + shape_of(heads.value) + " and policy " +
                                       shape_of(heads.policy) + " for a batch of " +
                                       std::to_string(kCheckBatch) +
                                       "; expected value [B,1] and policy [B,5184] or "
                                       "[B,81,8,8]");
    info.policy_shape = heads.policy.dim() == 2 ? "[B,5184]" : "[B,81,8,8]";
  }
};

TorchEvaluator::TorchEvaluator(const TorchConfig& config) : impl_(std::make_unique<Impl>()) {
  const auto started = zh::steady_clock().now();
  Impl& m = *impl_;
  std::string path = resolve_model_path(config.model_path);
  m.temperature = config.prior_temperature;
  if (!(m.temperature > 0.0f)) throw std::runtime_error("prior temperature must be > 0");
  if (path.empty())
    throw std::runtime_error("evaluator backend \"torch\" needs a model file (model_path)");
  m.device = parse_device(config.device);
  set_threads(config.threads);
  disable_cpu_fusion();
  use_onednn_for_quantized_models();
  LoadedModule loaded = load_module(path);
  // `auto` here is the static rule: on a CPU without native bf16 the model's int8 file where it
  // has one (a 1+1 match chose it over fp32: docs/strength.md, "int8 inference at 1+1"), bf16
  // where native. make_torch_evaluator (torch_auto_precision.cpp) then times the others.
  std::error_code ec;
  const bool auto_int8 = config.precision == "auto" && !m.device.is_cuda() &&
                         !cpu_has_native_bf16() && loaded.parsed.weights == "fp32" &&
                         std::filesystem::exists(int8_model_path(path), ec);
  const std::string requested = settle_int8(auto_int8 ? "int8" : config.precision, path, loaded,
                                            m.device.is_cuda(), auto_int8);
  const std::string precision =
      resolve_precision(requested, m.device.is_cuda(), cpu_has_native_bf16());
  m.dtype = parse_precision(precision, m.device);
  m.module = std::move(loaded.module);
  m.info.path = path;
  m.info.metadata = loaded.metadata;
  m.format = loaded.parsed.format;
  m.info.input = describe(m.format);
  m.info.device = m.device.str();
  m.info.precision = precision;
  m.info.threads = config.threads;

  m.module.eval();
  // Shapes are checked on the plain module first: its error messages are the clearest.
  const torch::Device target = m.device;
  const c10::ScalarType dtype = m.dtype;
  m.device = torch::Device(torch::kCPU);
  m.dtype = torch::kFloat;
  m.check(m.module, "as loaded");
  m.device = target;
  m.dtype = dtype;
  try {
    // Not for fp32 on the CPU, where it changes nothing but would turn an int8 model's integer
    // zero points into floats.
    if (m.device.is_cuda() || m.dtype != torch::kFloat) m.module.to(m.device, m.dtype);
  } catch (const std::exception& e) {
    throw model_error(
        path, "cannot move to " + m.info.device + " " + precision + ": " + torch_message(e));
  }
  m.choose_layout(config.layout);

  // Freezing folds batch norms and constants; optimize_for_inference also converts the
  // convolutions to oneDNN on the CPU (1.5-2x there). Not every model or precision takes
  // every pass, so each is tried and must pass the shape check before it is kept.
  m.info.optimization = "none";
  for (const char* pass : {"optimize_for_inference", "freeze"}) {
    try {
      torch::jit::Module candidate = std::string(pass) == "freeze"
                                         ? torch::jit::freeze(m.module)
                                         : torch::jit::optimize_for_inference(m.module);
      m.check(candidate, pass);
      m.module = candidate;
      m.info.optimization = pass;
      break;
    } catch (const std::exception& e) {
      log_message(LogLevel::kDebug,
                  std::string("nn: ") + pass + " not applied to " + path + ": " + torch_message(e));
    }
  }
  if (m.info.optimization == "none") m.check(m.module, m.info.device + " " + precision);
  if (m.layout == at::MemoryFormat::ChannelsLast) m.info.optimization += ", channels-last";

  // Batches on CUDA are padded up to buckets (engine/nn/batch_buckets.h); the CPU runs every
  // size as it comes (no specialisation pause worth padding for there).
  const int max_batch = std::max(1, config.max_batch);
  if (m.device.is_cuda()) m.buckets = batch_buckets(max_batch);
  m.buffers.init(std::max(max_batch, 16), input_planes(m.format), m.device.is_cuda());

  // Warm-up: the profiling executor specialises on its first runs, per shape: every bucket on
  // CUDA, the CPU's usual sizes 1 and 16 there.
  {
    c10::InferenceMode guard;
    const std::vector<int> sizes = m.device.is_cuda() ? m.buckets : std::vector<int>{16, 1};
    const int rows = *std::max_element(sizes.begin(), sizes.end());
    const std::vector<EvalInput> inputs(std::size_t(rows), EvalInput{Position(), 0});
    at::Tensor x = torch::empty({rows, input_planes(m.format), 8, 8});
    encode_batch(inputs,
                 {x.data_ptr<float>(), static_cast<std::size_t>(rows * input_size(m.format))},
                 m.format);
    for (int i = 0; i < 2; ++i)
      for (int b : sizes) m.forward(x.narrow(0, 0, b));
    if (m.device.is_cuda()) torch::cuda::synchronize(m.device.index());
  }
  m.info.load_seconds = std::chrono::duration<double>(zh::steady_clock().now() - started).count();
  std::string buckets = "none (CPU)";
  if (!m.buckets.empty()) {
    buckets.clear();
    for (int b : m.buckets) buckets += (buckets.empty() ? "" : ",") + std::to_string(b);
  }
  m.info.buckets = buckets;
  log_message(config.log_load ? LogLevel::kInfo : LogLevel::kDebug, load_line(config.precision));
  if (m.device.is_cuda())
    log_message(LogLevel::kInfo,
                "nn: " + describe_cuda_device(m.device.index()) + "; LibTorch " TORCH_VERSION);
}

TorchEvaluator::~TorchEvaluator() = default;

std::string TorchEvaluator::load_line(const std::string& requested) const {
  const TorchModelInfo& i = impl_->info;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2f", i.load_seconds);
  const std::string precision =
      i.precision == requested ? i.precision : i.precision + " (" + requested + ")";
  return "nn: loaded " + i.path + " on " + i.device + " (" + precision + ", " +
         std::to_string(i.threads) + " thread(s), " + i.optimization + "), policy " +
         i.policy_shape + ", batch buckets " + i.buckets + ", " + seconds +
         " s; metadata: " + (i.metadata.empty() ? "none" : i.metadata);
}

const TorchModelInfo& TorchEvaluator::info() const { return impl_->info; }

InputFormat TorchEvaluator::input_format() const { return impl_->format; }

void TorchEvaluator::evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) {
  const auto n = static_cast<int64_t>(inputs.size());
  if (n == 0) return;
  c10::InferenceMode guard;
  Impl& m = *impl_;
  // CUDA: pad up to the bucket, so the network only ever sees the shapes warmed at load.
  const int64_t rows = m.buckets.empty() ? n : bucket_for(int(n), m.buckets);
  at::Tensor* buffer = m.buffers.acquire(int(rows));
  struct Release {
    HostBuffers& buffers;
    at::Tensor* t;
    ~Release() { buffers.release(t); }
  } release{m.buffers, buffer};
  const int64_t size = input_size(m.format);
  at::Tensor x =
      buffer ? buffer->narrow(0, 0, rows) : torch::empty({rows, input_planes(m.format), 8, 8});
  float* planes = x.data_ptr<float>();
  encode_batch(inputs, {planes, static_cast<std::size_t>(n * size)}, m.format);
  if (rows > n)  // the padding rows: any valid input; zeros are cheapest
    std::fill(planes + n * size, planes + rows * size, 0.0f);
  const Heads heads = m.forward(x);

  // The legal moves and their policy slots (on a GPU while it runs the network), then only those
  // logits come back: a whole policy row is 5 184 floats for a few dozen read, and copying whole
  // rows bound evaluate() on an H100 (0.22 of the raw forward at batch 1 024).
  thread_local std::vector<std::int64_t> row_slots, all_slots;
  all_slots.clear();
  std::int64_t width = 1;
  for (int64_t i = 0; i < n; ++i) {
    legal_moves_and_slots(inputs[i].position, outputs[i].priors, row_slots);
    width = std::max<std::int64_t>(width, static_cast<std::int64_t>(row_slots.size()));
    all_slots.insert(all_slots.end(), row_slots.begin(), row_slots.end());
  }
  at::Tensor index = torch::zeros({n, width}, torch::kLong);  // padding gathers slot 0, unread
  std::int64_t* dst = index.data_ptr<std::int64_t>();
  for (int64_t i = 0, from = 0; i < n; ++i) {
    const auto count = static_cast<std::int64_t>(outputs[i].priors.size());
    std::copy_n(all_slots.begin() + from, count, dst + i * width);
    from += count;
  }
  const at::Tensor policy = heads.policy.reshape({rows, kPolicySize}).narrow(0, 0, n);
  const at::Tensor logits = policy.gather(1, index.to(policy.device())).to(torch::kFloat);
  const at::Tensor values = heads.value.reshape({rows, 1}).narrow(0, 0, n).to(torch::kFloat);
  // One copy back (one wait for the device): each row is the value, then the legal logits.
  const at::Tensor back = torch::cat({values, logits}, 1).to(torch::kCPU).contiguous();
  const float* row = back.data_ptr<float>();
  for (int64_t i = 0; i < n; ++i, row += width + 1) {
    outputs[i].value = std::isfinite(row[0]) ? std::clamp(row[0], -1.0f, 1.0f) : 0.0f;
    std::vector<MovePrior>& priors = outputs[i].priors;
    for (std::size_t j = 0; j < priors.size(); ++j) priors[j].prior = row[1 + j];
    softmax_priors(m.temperature, priors);
  }
}

std::function<void()> TorchEvaluator::make_raw_forward(std::span<const float> planes,
                                                       int batch) const {
  if (batch < 1) throw std::runtime_error("batch must be >= 1");
  const int size = input_size(impl_->format);
  const bool one_row = planes.size() == static_cast<std::size_t>(size);
  if (!one_row && planes.size() != static_cast<std::size_t>(batch) * std::size_t(size))
    throw std::runtime_error("raw forward: planes must hold 1 or batch positions of " +
                             describe(impl_->format));
  at::Tensor x = torch::empty({batch, input_planes(impl_->format), 8, 8});
  for (int i = 0; i < batch; ++i)
    std::copy_n(planes.data() + (one_row ? 0 : i * size), size, x.data_ptr<float>() + i * size);
  x = impl_->network_input(x);
  const Impl* impl = impl_.get();
  return [impl, x] {
    use_threads_on_this_thread(impl->info.threads);
    c10::InferenceMode guard;
    std::vector<c10::IValue> args{x};
    const c10::IValue out = impl->module.forward(std::move(args));
    if (impl->device.is_cuda()) torch::cuda::synchronize(impl->device.index());
  };
}

}  // namespace zh
