#pragma once
// A property a fuzz target checks: when it does not hold, abort() so libFuzzer keeps the input
// as a crash (assert() would vanish under NDEBUG).

#include <cstdio>
#include <cstdlib>

#define ZH_FUZZ_CHECK(condition)                                                            \
  do {                                                                                      \
    if (!(condition)) {                                                                     \
      std::fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)
