#include "engine/nn/backends/torch_model_file.h"

#include <filesystem>
#include <sstream>
#include <utility>
#include <vector>

#include "engine/log.h"
#include "engine/nn/backends/torch_evaluator.h"
#include "engine/nn/backends/torch_runtime.h"
#include "engine/nn/policy_map.h"

namespace zh {

std::runtime_error model_error(const std::string& path, const std::string& what) {
  return std::runtime_error("model file '" + path + "': " + what);
}

std::string shape_of(const at::Tensor& t) {
  std::ostringstream out;
  out << '[';
  for (int64_t d = 0; d < t.dim(); ++d) out << (d ? "," : "") << t.size(d);
  out << ']';
  return out.str();
}

Heads split_outputs(const c10::IValue& out, const std::string& path) {
  std::vector<at::Tensor> tensors;
  if (out.isTuple()) {
    for (const auto& e : out.toTuple()->elements())
      if (e.isTensor()) tensors.push_back(e.toTensor());
  } else if (out.isTensorList()) {
    tensors = out.toTensorVector();
  } else if (out.isList()) {
    const c10::List<c10::IValue> list = out.toList();
    for (std::size_t i = 0; i < list.size(); ++i)
      if (const c10::IValue e = list.get(i); e.isTensor()) tensors.push_back(e.toTensor());
  } else if (out.isTensor()) {
    throw model_error(path, "returns one tensor " + shape_of(out.toTensor()) +
                                "; expected a tuple (value [B,1], policy [B,5184] or "
                                "[B,81,8,8])");
  }
  if (tensors.size() < 2)
    throw model_error(path, "returns " + std::string(out.tagKind()) + " with " +
                                std::to_string(tensors.size()) +
                                " tensor(s); expected (value [B,1], policy [B,5184] or "
                                "[B,81,8,8])");
  return {tensors[0], tensors[1]};
}

bool value_shape_ok(const at::Tensor& v, int64_t batch) {
  return (v.dim() == 2 && v.size(0) == batch && v.size(1) == 1) ||
         (v.dim() == 1 && v.size(0) == batch);
}

bool policy_shape_ok(const at::Tensor& p, int64_t batch) {
  return (p.dim() == 2 && p.size(0) == batch && p.size(1) == kPolicySize) ||
         (p.dim() == 4 && p.size(0) == batch && p.size(1) == kPolicyPlanes && p.size(2) == 8 &&
          p.size(3) == 8);
}

int64_t first_conv_planes(const torch::jit::Module& module) {
  for (const at::Tensor& p : module.parameters())
    if (p.dim() == 4) return p.size(1);
  return -1;
}

LoadedModule load_module(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw model_error(path, "does not exist (give the path of a TorchScript .pt file)");
  if (!std::filesystem::is_regular_file(path, ec)) throw model_error(path, "is not a file");
  LoadedModule out;
  torch::jit::ExtraFilesMap extra{{"zhbot.json", ""}};
  try {
    out.module = torch::jit::load(path, torch::Device(torch::kCPU), extra);
  } catch (const std::exception& e) {
    throw model_error(path,
                      "is not a loadable TorchScript model (save it with "
                      "torch.jit.script(net).save(...) or torch.jit.trace): " +
                          torch_message(e));
  }
  out.metadata = extra["zhbot.json"];
  if (!out.metadata.empty()) {
    try {
      out.parsed = parse_model_metadata(out.metadata);
    } catch (const ModelMetadataError& e) {
      throw model_error(path, e.what());
    }
  }
  return out;
}

std::string settle_int8(const std::string& requested, std::string& path, LoadedModule& loaded,
                        bool on_cuda, bool from_auto) {
  if (loaded.parsed.weights == "int8") {
    if (on_cuda)
      throw model_error(path,
                        "has int8 weights, which LibTorch runs on the CPU only; on CUDA "
                        "use the fp32 model file it was made from");
    if (requested != "auto" && requested != "int8")
      throw model_error(path, "has int8 weights: precision must be auto or int8, not " + requested);
    return "int8";
  }
  if (requested != "int8") return requested;
  if (on_cuda)
    throw std::runtime_error(
        "precision int8 runs on the CPU only (LibTorch's int8 kernels); "
        "on CUDA use auto, fp16 or fp32");
  const std::string sibling = int8_model_path(path);
  std::error_code ec;
  if (!std::filesystem::exists(sibling, ec))
    throw model_error(path, "precision int8 needs its int8 version " + sibling +
                                " (training/quantize.py makes one)");
  LoadedModule int8 = load_module(sibling);
  if (int8.parsed.weights != "int8")
    throw model_error(sibling, "does not declare int8 weights in its zhbot.json");
  if (!int8_made_from(int8.metadata, loaded.metadata)) {
    const std::string why = "was not made from " + path +
                            " (their zhbot.json differ): make it again with "
                            "training/quantize.py, or delete it";
    if (!from_auto) throw model_error(sibling, why);
    log_message(LogLevel::kWarning, "nn: " + sibling + " " + why + "; running " + path);
    return "auto";
  }
  path = sibling;
  loaded = std::move(int8);
  return "int8";
}

std::string int8_model_path(const std::string& path) {
  const std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + "-int8" + p.extension().string())).string();
}

}  // namespace zh
