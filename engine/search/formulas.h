#pragma once
// The scalar formulas of the CrazyAra paper (section 9), kept pure so each is unit-tested
// with hand-computed numbers. Equation numbers follow the paper; docs/search-formulas.md says
// what each one is.

#include <cmath>

namespace zh::formulas {

// (3) cpuct(s) = log((N(s) + base + 1) / base) + init
inline double cpuct(double n, double init, double base) {
  return std::log((n + base + 1.0) / base) + init;
}

// (10)(11) u_div(s) = u_min - exp(-N(s)/u_base) * (u_min - u_init)
inline double u_divisor(double n, double u_min, double u_init, double u_base) {
  return u_min - std::exp(-n / u_base) * (u_min - u_init);
}

// U(s,a) = cpuct(s) * P(s,a) * sqrt(sum_b N(s,b)) / (u_div(s) + N(s,a))
inline double exploration(double cpuct, double prior, double sqrt_parent_visits, double u_div,
                          double child_visits) {
  return cpuct * prior * sqrt_parent_visits / (u_div + child_visits);
}

// First-play value relative to the parent (not in the paper; Leela Chess Zero's "FPU
// reduction"): an unvisited child counts as the parent's own value, lowered the more of the
// prior mass the visited children already hold, so the search widens where the network is
// unsure and stays narrow where its top moves carry the prior.
inline double relative_first_play_value(double parent_q, double visited_prior, double reduction) {
  return parent_q - reduction * std::sqrt(visited_prior);
}

// (5) Qthresh(s) = max - exp(-N(s)/base) * (max - init)
inline double q_threshold(double n, double init, double max, double base) {
  return max - std::exp(-n / base) * (max - init);
}

// (8) cp = -v/|v| * ln(1 - |v|) / ln(1.2) * 100, clamped to +-9999 for |v| -> 1.
inline int value_to_centipawns(double v) {
  constexpr int kMax = 9999;
  const double a = std::fabs(v);
  if (a < 1e-9) return 0;
  if (a >= 1.0) return v > 0 ? kMax : -kMax;
  const double cp = -(v / a) * std::log(1.0 - a) / std::log(1.2) * 100.0;
  if (cp > kMax) return kMax;
  if (cp < -kMax) return -kMax;
  return int(std::lround(cp));
}

}  // namespace zh::formulas
