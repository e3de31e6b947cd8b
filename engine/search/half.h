#pragma once
// IEEE 754 binary16 conversion for the priors stored in the tree (2 bytes per legal move
// instead of 4). Priors lie in [0, 1]; half precision keeps 3 significant digits down to 6e-5
// and subnormals below, which is far finer than any difference the search reacts to.

#include <bit>
#include <cstdint>

namespace zh {

inline std::uint16_t float_to_half(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::int32_t exp = std::int32_t((x >> 23) & 0xFF) - 127 + 15;
  std::uint32_t mant = x & 0x7FFFFFu;
  if (((x >> 23) & 0xFF) == 0xFF) return std::uint16_t(sign | 0x7C00u | (mant ? 0x200u : 0));
  if (exp >= 31) return std::uint16_t(sign | 0x7C00u);  // overflow -> infinity
  if (exp <= 0) {
    if (exp < -10) return std::uint16_t(sign);  // too small -> zero
    mant |= 0x800000u;
    const int shift = 14 - exp;
    std::uint32_t half = mant >> shift;
    const std::uint32_t rest = mant & ((1u << shift) - 1);
    const std::uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1))) ++half;
    return std::uint16_t(sign | half);
  }
  std::uint32_t half = sign | (std::uint32_t(exp) << 10) | (mant >> 13);
  const std::uint32_t rest = mant & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1))) ++half;  // round to nearest even
  return std::uint16_t(half);
}

inline float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1F;
  std::uint32_t mant = h & 0x3FFu;
  if (exp == 0) {
    if (mant == 0) return std::bit_cast<float>(sign);
    // Subnormal: normalise.
    int e = -1;
    do {
      ++e;
      mant <<= 1;
    } while ((mant & 0x400u) == 0);
    mant &= 0x3FFu;
    return std::bit_cast<float>(sign | (std::uint32_t(127 - 15 - e) << 23) | (mant << 13));
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7F800000u | (mant << 13));
  return std::bit_cast<float>(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

}  // namespace zh
