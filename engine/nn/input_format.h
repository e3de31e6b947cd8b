#pragma once
// The input formats a network may take; its metadata ("input_version" in zhbot.json) says
// which. Format 1.0 is CrazyAra's 34 planes (engine/nn/encoder.h); format 2.0 adds what those
// planes cannot show: the last two moves, the pieces giving check and the material balance
// (training/README.md argues the choice).

#include <stdexcept>
#include <string>
#include <string_view>

namespace zh {

enum class InputFormat { kV1, kV2 };

inline constexpr int kInputPlanesV1 = 34;
inline constexpr int kInputPlanesV2 = 46;
inline constexpr int kMaxInputPlanes = kInputPlanesV2;

constexpr int input_planes(InputFormat f) {
  return f == InputFormat::kV1 ? kInputPlanesV1 : kInputPlanesV2;
}
constexpr int input_size(InputFormat f) { return input_planes(f) * 64; }
constexpr const char* input_version(InputFormat f) { return f == InputFormat::kV1 ? "1.0" : "2.0"; }

// "1.0"/"1" and "2.0"/"2" (as written in metadata, headers and on the command line); throws
// std::invalid_argument naming the formats known for anything else.
InputFormat parse_input_format(std::string_view version);

// "format 2.0 (46 planes)", for messages.
std::string describe(InputFormat f);

}  // namespace zh
