#pragma once
// The "zhbot.json" metadata a TorchScript model may carry (see backends/torch_evaluator.h):
// parsed and checked here, apart from LibTorch, so that it can be tested and fuzzed without it.

#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/nn/input_format.h"

namespace zh {

class ModelMetadataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ModelMetadata {
  std::string input_version;              // as declared ("1.0"), empty when not declared
  InputFormat format = InputFormat::kV1;  // what it declares; 1.0 when it declares nothing
  // "fp32" (also when not declared) or "int8" (training/quantize.py: quantized weights and
  // activations, run on the CPU at precision int8).
  std::string weights = "fp32";
};

// Throws ModelMetadataError (a message naming zhbot.json and what is wrong) for text that is
// not a JSON object, that declares an input version zhbot does not encode (input_format.h), or
// weights other than fp32 and int8.
ModelMetadata parse_model_metadata(std::string_view text);

// Whether an int8 file's zhbot.json says it was made from the model whose zhbot.json is
// `source` (empty: none). training/quantize.py copies the source's metadata and adds its own
// name, weights and quantization fields; everything else, the training recipe and metrics
// included, must be equal. A model retrained under the same file name thus no longer matches
// the int8 file left beside it.
bool int8_made_from(std::string_view int8, std::string_view source);

}  // namespace zh
