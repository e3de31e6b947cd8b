#pragma once

#include <string>

namespace zh::test {

// The checked-in test vectors (tests/data of the source tree).
std::string data_dir();
// The built programs that the integration tests start (the emulator: with ZH_BUILD_BOT only).
std::string zhbot_bin();
std::string emulator_bin();

}  // namespace zh::test
