#include "engine/nn/backends/torch_runtime.h"

#include <ATen/Parallel.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <dlfcn.h>
#include <torch/cuda.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include "engine/nn/backends/torch_cpu_fusion.h"
#include "engine/nn/gpu_report.h"

namespace zh {

// c10::Error messages carry a C++ backtrace after the first lines; keep the message only.
std::string torch_message(const std::exception& e) {
  const auto* c10e = dynamic_cast<const c10::Error*>(&e);
  std::string msg = c10e ? c10e->what_without_backtrace() : e.what();
  if (auto cut = msg.find("\nException raised from"); cut != std::string::npos) msg.resize(cut);
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
  return msg;
}

torch::Device parse_device(const std::string& text) {
  if (text == "cpu") return torch::Device(torch::kCPU);
  if (text == "cuda" || text.rfind("cuda:", 0) == 0) {
    int index = 0;
    if (text.size() > 5) {
      try {
        std::size_t used = 0;
        index = std::stoi(text.substr(5), &used);
        if (used != text.size() - 5 || index < 0) throw std::invalid_argument(text);
      } catch (const std::exception&) {
        throw std::runtime_error("device '" + text + "': expected cpu, cuda or cuda:N");
      }
    }
    if (!torch::cuda::is_available())
      throw std::runtime_error("device '" + text +
                               "' requested but LibTorch finds no CUDA device. " +
                               missing_gpu_hint() + "; or use device cpu");
    const auto count = static_cast<int>(torch::cuda::device_count());
    if (index >= count)
      throw std::runtime_error("device '" + text + "' does not exist: " + std::to_string(count) +
                               " CUDA device(s), cuda:0 .. cuda:" + std::to_string(count - 1));
    return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(index));
  }
  throw std::runtime_error("unknown device '" + text + "': expected cpu, cuda or cuda:N");
}

c10::ScalarType parse_precision(const std::string& text, const torch::Device& device) {
  if (text == "fp32") return torch::kFloat;
  if (text == "fp16") {
    if (!device.is_cuda())
      throw std::runtime_error(
          "precision fp16 needs a CUDA device (LibTorch has no fp16 convolutions on the CPU); "
          "on the CPU use fp32 or bf16");
    return torch::kHalf;
  }
  if (text == "bf16") return torch::kBFloat16;
  if (text == "int8") return torch::kFloat;  // an int8 model takes fp32 planes
  throw std::runtime_error("unknown precision '" + text +
                           "': expected auto, fp32, fp16, bf16 or int8");
}

// The few CPU layers oneDNN does not take (a small convolution among them, once per forward) run
// through BLAS, on Debian OpenBLAS, whose own thread pool ignores at::set_num_threads: its extra
// thread spun in sched_yield through the whole search, a quarter of a second core by `time` at
// one thread a side (docs/performance.md), taken from the opponent or the next game. Found by
// name, so any other BLAS (or none) is left as it is.
namespace {
void limit_blas_threads(int threads) {
  using SetThreads = void (*)(int);
  if (auto* set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
    set(threads);
}
}  // namespace

// Intra-op threads are a process-wide LibTorch setting; inter-op parallelism is not used
// (one forward at a time per caller), and can only be set before the first parallel work.
void set_threads(int threads) {
  if (threads < 1) throw std::runtime_error("torch threads must be >= 1");
  static std::once_flag interop;
  std::call_once(interop, [] {
    try {
      at::set_num_interop_threads(1);
    } catch (const std::exception&) {  // already started by someone else: harmless
    }
  });
  at::set_num_threads(threads);
  limit_blas_threads(threads);
}

// OpenMP keeps the thread count per calling thread, and at::set_num_threads() at load sets it
// for the loading thread. LibTorch 1.13 passed it on to other threads at their first parallel
// region; 2.6 does not, so the InferenceService's thread ran every forward with one OpenMP worker
// per core (measured on 2 cores with 2.6: the service path at 0.2-0.4x of the raw forward, where
// OMP_NUM_THREADS=1 or this call gives 0.9-1.0x). Applied once on every thread that runs the net.
void use_threads_on_this_thread(int threads) {
  thread_local int applied = 0;
  if (applied == threads) return;
  at::set_num_threads(threads);
  applied = threads;
}

// TorchScript's profiling executor hands element-wise groups to the TensorExpr fuser, which on
// the CPU compiles them with LLVM at run time, for each input shape it specialises on. Debian
// 12's LibTorch 1.13 has no LLVM and never fuses on the CPU; Debian 13's 2.6 has it and fuses
// by default (torch._C._jit_can_fuse_on_cpu(): False there, True here), and its compile of the
// warm-up's kernel ran 10+ minutes at full CPU without finishing: a model that never loads.
// Convolutions (oneDNN after optimize_for_inference) are unaffected; CUDA fusion stays on.
// Set at every load (a process-wide flag; cheap), before the model's first run.
void disable_cpu_fusion() { torch::jit::overrideCanFuseOnCPU(false); }

// An int8 model (training/quantize.py) runs its quantized convolutions through whichever
// quantized engine is current; LibTorch picks QNNPACK, the mobile one, by default where FBGEMM
// is not built (Debian's 1.13). oneDNN's int8 kernels use AVX-512 VNNI where the CPU has it.
void use_onednn_for_quantized_models() {
  const auto& engines = at::globalContext().supportedQEngines();
  if (std::find(engines.begin(), engines.end(), at::kONEDNN) != engines.end())
    at::globalContext().setQEngine(at::kONEDNN);
}

namespace {

// "x.y.z" from CUDA's and cuDNN's integer versions (major*1000+minor*10, major*1000+minor*100
// +patch for cuDNN 8).
std::string cuda_version_text(long v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}
std::string cudnn_version_text(long v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 100) + "." +
         std::to_string(v % 100);
}

}  // namespace

// The startup line about a CUDA device: its name, capability and memory, CUDA and cuDNN.
std::string describe_cuda_device(int index) {
  std::string text = describe_gpu(index);
  try {
    const auto& hooks = at::detail::getCUDAHooks();
    text += "; CUDA runtime " + cuda_version_text(hooks.versionCUDART());
    text += hooks.hasCuDNN() ? "; cuDNN " + cudnn_version_text(hooks.versionCuDNN())
                             : std::string("; no cuDNN");
  } catch (const std::exception& e) {
    text += "; CUDA versions unknown (" + torch_message(e) + ")";
  }
  return text;
}

}  // namespace zh
