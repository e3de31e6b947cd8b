#include "engine/nn/input_format.h"

namespace zh {

InputFormat parse_input_format(std::string_view version) {
  if (version == "1.0" || version == "1" || version == "v1") return InputFormat::kV1;
  if (version == "2.0" || version == "2" || version == "v2") return InputFormat::kV2;
  throw std::invalid_argument("input format '" + std::string(version) +
                              "' is unknown; zhbot encodes 1.0 (34 planes) and 2.0 (46 planes)");
}

std::string describe(InputFormat f) {
  return std::string("format ") + input_version(f) + " (" + std::to_string(input_planes(f)) +
         " planes)";
}

}  // namespace zh
