#include "tests/support/test_paths.h"

namespace zh::test {

std::string data_dir() { return ZH_TEST_DATA_DIR; }
std::string zhbot_bin() { return ZH_ZHBOT_BIN; }
#ifdef ZH_EMULATOR_BIN
std::string emulator_bin() { return ZH_EMULATOR_BIN; }
#endif

}  // namespace zh::test
