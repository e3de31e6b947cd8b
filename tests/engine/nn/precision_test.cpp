#include "engine/nn/precision.h"

#include <gtest/gtest.h>

namespace zh {
namespace {

// Abridged /proc/cpuinfo texts: a Sapphire Rapids core lists both bf16 sets, an older Xeon
// neither, an ARM core has "Features" instead of "flags".
constexpr const char* kWithBf16 =
    "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz\n"
    "flags\t\t: fpu vme avx512f avx512_vnni avx512_bf16 amx_bf16 amx_tile\n\n"
    "processor\t: 1\nflags\t\t: fpu vme avx512f avx512_vnni avx512_bf16 amx_bf16 amx_tile\n";
constexpr const char* kAmxOnly = "flags\t\t: fpu avx512f amx_bf16\n";
constexpr const char* kWithoutBf16 =
    "processor\t: 0\nflags\t\t: fpu vme avx2 avx512f avx512_vnni avx512bw\n";
constexpr const char* kArm = "processor\t: 0\nFeatures\t: fp asimd bf16 i8mm\n";

TEST(PrecisionTest, ReadsTheFlagsLine) {
  EXPECT_TRUE(cpuinfo_has_native_bf16(kWithBf16));
  EXPECT_TRUE(cpuinfo_has_native_bf16(kAmxOnly));
  EXPECT_FALSE(cpuinfo_has_native_bf16(kWithoutBf16));
  EXPECT_FALSE(cpuinfo_has_native_bf16(kArm));
  EXPECT_FALSE(cpuinfo_has_native_bf16(""));
}

TEST(PrecisionTest, AutoIsBf16OnACpuWithNativeBf16AndFp16OnCuda) {
  EXPECT_EQ(resolve_precision("auto", /*on_cuda=*/false, /*native_bf16=*/true), "bf16");
  EXPECT_EQ(resolve_precision("auto", false, false), "fp32");
  // CUDA: fp16 (tensor cores; lc0 and CrazyAra run their networks in fp16 on GPUs).
  EXPECT_EQ(resolve_precision("auto", true, true), "fp16");
  EXPECT_EQ(resolve_precision("auto", true, false), "fp16");
}

TEST(PrecisionTest, AnExplicitChoiceIsKept) {
  for (const char* p : {"fp32", "bf16", "fp16"}) {
    EXPECT_EQ(resolve_precision(p, false, true), p);
    EXPECT_EQ(resolve_precision(p, true, false), p);
  }
}

}  // namespace
}  // namespace zh
