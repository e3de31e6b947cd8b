// The daemon's state file (bot/state/state_file.h): a disk may hand back anything. Either it
// parses to a state that renders and parses back to itself, or it is refused with a reason.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "bot/state/state_file.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string error;
  const auto state =
      zh::bot::parse_state(std::string_view(reinterpret_cast<const char*>(data), size), error);
  if (!state) {
    ZH_FUZZ_CHECK(!error.empty());
    return 0;
  }
  const auto again = zh::bot::parse_state(zh::bot::render_state(*state), error);
  ZH_FUZZ_CHECK(again && *again == *state);
  return 0;
}
