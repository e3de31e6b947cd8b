#include "bot/daemon/process_secrecy.h"

#include <sys/prctl.h>
#include <sys/resource.h>

#include <cstdlib>
#include <cstring>

namespace zh::bot {

void scrub_environment_variable(const char* name) {
  if (char* value = std::getenv(name)) std::memset(value, 'x', std::strlen(value));
  ::unsetenv(name);
}

bool disable_core_dumps() {
  const rlimit none{0, 0};
  const bool limited = ::setrlimit(RLIMIT_CORE, &none) == 0;
  const bool undumpable = ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0;
  return limited && undumpable;
}

}  // namespace zh::bot
