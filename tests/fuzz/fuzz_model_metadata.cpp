// The "zhbot.json" metadata inside a model file (a model is a download: untrusted). Either it
// is accepted or refused with ModelMetadataError; nothing else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/nn/model_metadata.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)zh::parse_model_metadata(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const zh::ModelMetadataError&) {
  }
  return 0;
}
