#include "engine/search/formulas.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/search/half.h"

namespace zh {
namespace {

TEST(Formulas, CpuctEq3) {
  // log((N + base + 1)/base) + init; at N = 0 that is log(19653/19652) + 2.5.
  EXPECT_NEAR(formulas::cpuct(0, 2.5, 19652), 2.5 + 5.0884e-5, 1e-8);
  // N = base - 1: log(2) + 2.5.
  EXPECT_NEAR(formulas::cpuct(19651, 2.5, 19652), 2.5 + 0.693147, 1e-6);
}

TEST(Formulas, UDivisorEq10And11) {
  // u_min - exp(-N/u_base) * (u_min - u_init): 1 at N = 0, towards 0.25 for large N.
  EXPECT_DOUBLE_EQ(formulas::u_divisor(0, 0.25, 1.0, 1965), 1.0);
  // N = u_base: 0.25 + 0.75 / e = 0.525909...
  EXPECT_NEAR(formulas::u_divisor(1965, 0.25, 1.0, 1965), 0.5259090, 1e-6);
  EXPECT_NEAR(formulas::u_divisor(1e7, 0.25, 1.0, 1965), 0.25, 1e-9);
}

TEST(Formulas, ExplorationTerm) {
  // U = cpuct * P * sqrt(sum N) / (u_div + N(s,a)) = 2.5 * 0.2 * 10 / (1 + 4) = 1.
  EXPECT_DOUBLE_EQ(formulas::exploration(2.5, 0.2, 10.0, 1.0, 4.0), 1.0);
}

TEST(Formulas, QThresholdEq5) {
  EXPECT_DOUBLE_EQ(formulas::q_threshold(0, 0.5, 0.9, 1965), 0.5);
  // N = base: 0.9 - 0.4 / e = 0.752848...
  EXPECT_NEAR(formulas::q_threshold(1965, 0.5, 0.9, 1965), 0.7528482, 1e-6);
}

TEST(Formulas, RelativeFirstPlayValue) {
  // Nothing visited yet: the parent's own value; a quarter of the prior visited: half the
  // reduction below it.
  EXPECT_DOUBLE_EQ(formulas::relative_first_play_value(0.2, 0, 0.3), 0.2);
  EXPECT_DOUBLE_EQ(formulas::relative_first_play_value(0.2, 0.25, 0.3), 0.05);
  EXPECT_DOUBLE_EQ(formulas::relative_first_play_value(-0.5, 1, 0.5), -1.0);
}

TEST(Formulas, CentipawnsEq8) {
  EXPECT_EQ(formulas::value_to_centipawns(0.0), 0);
  // v = 0.5: -ln(0.5)/ln(1.2)*100 = 380.18 -> 380.
  EXPECT_EQ(formulas::value_to_centipawns(0.5), 380);
  EXPECT_EQ(formulas::value_to_centipawns(-0.5), -380);
  // v = 0.1: -ln(0.9)/ln(1.2)*100 = 57.79 -> 58.
  EXPECT_EQ(formulas::value_to_centipawns(0.1), 58);
  EXPECT_EQ(formulas::value_to_centipawns(1.0), 9999);
  EXPECT_EQ(formulas::value_to_centipawns(-1.0), -9999);
  EXPECT_EQ(formulas::value_to_centipawns(0.99999999), 9999);  // clamped
}

TEST(Half, RoundTripsPriorsClosely) {
  for (float p : {0.0f, 1.0f, 0.5f, 0.1f, 0.01f, 1.0f / 300, 1e-4f, 3e-6f, 0.999f}) {
    const float back = half_to_float(float_to_half(p));
    EXPECT_NEAR(back, p, std::max(1e-7f, p * 1e-3f)) << p;
  }
  EXPECT_EQ(float_to_half(1.0f), 0x3C00);
  EXPECT_EQ(float_to_half(0.5f), 0x3800);
  EXPECT_EQ(half_to_float(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  // Order is preserved, which is what edge sorting relies on.
  EXPECT_LT(float_to_half(0.0100f), float_to_half(0.0101f));
}

}  // namespace
}  // namespace zh
