#include "engine/nn/precision.h"

#include <gtest/gtest.h>

#include <vector>

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

// The figures of docs/performance.md: an Intel Xeon that lists avx512_bf16 but runs bf16 at
// half fp32's speed, and an AMD EPYC (Zen 4) where bf16 ran 1.6x fp32.
TEST(PrecisionTest, MeasuredAutoKeepsThePreferredUnlessAnotherIsClearlyFaster) {
  const std::vector<MeasuredPrecision> xeon = {{"bf16", 990}, {"int8", 2800}, {"fp32", 2200}};
  EXPECT_EQ(choose_measured_precision("bf16", xeon), "int8");
  const std::vector<MeasuredPrecision> zen4 = {{"bf16", 2750}, {"fp32", 1700}};
  EXPECT_EQ(choose_measured_precision("bf16", zen4), "bf16");
  // Within the margin the preferred stays, however the noise falls.
  EXPECT_EQ(choose_measured_precision("int8", {{"int8", 1000}, {"fp32", 1240}}), "int8");
  EXPECT_EQ(choose_measured_precision("int8", {{"int8", 1000}, {"fp32", 1250}}), "fp32");
  EXPECT_EQ(choose_measured_precision("int8", {{"int8", 1000}, {"fp32", 1250}}, 1.5), "int8");
  // Past the preferred, the first in order that is close to the fastest: int8 and fp32 close
  // in speed do not swap with the noise.
  EXPECT_EQ(choose_measured_precision("bf16", {{"bf16", 800}, {"int8", 2000}, {"fp32", 2300}}),
            "int8");
  EXPECT_EQ(choose_measured_precision("bf16", {{"bf16", 800}, {"int8", 1800}, {"fp32", 2300}}),
            "fp32");
  // The preferred one did not load: the same rule over the rest; nothing measured: the preferred.
  EXPECT_EQ(choose_measured_precision("int8", {{"fp32", 900}, {"bf16", 400}}), "fp32");
  EXPECT_EQ(choose_measured_precision("bf16", {}), "bf16");
}

TEST(PrecisionTest, AnExplicitChoiceIsKept) {
  for (const char* p : {"fp32", "bf16", "fp16"}) {
    EXPECT_EQ(resolve_precision(p, false, true), p);
    EXPECT_EQ(resolve_precision(p, true, false), p);
  }
}

}  // namespace
}  // namespace zh
