#pragma once
// The "zhbot.json" metadata a TorchScript model may carry (see backends/torch_evaluator.h):
// parsed and checked here, apart from LibTorch, so that it can be tested and fuzzed without it.

#include <stdexcept>
#include <string>
#include <string_view>

namespace zh {

class ModelMetadataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ModelMetadata {
  std::string input_version;  // as declared ("1.0"), empty when not declared
  // "fp32" (also when not declared) or "int8" (training/quantize.py: quantized weights and
  // activations, run on the CPU at precision int8).
  std::string weights = "fp32";
};

// Throws ModelMetadataError (a message naming zhbot.json and what is wrong) for text that is
// not a JSON object, that declares an input version other than the one zhbot encodes, or
// weights other than fp32 and int8.
ModelMetadata parse_model_metadata(std::string_view text);

}  // namespace zh
