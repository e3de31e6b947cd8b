#include "engine/nn/precision.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace zh {

bool cpuinfo_has_native_bf16(std::string_view cpuinfo) {
  std::istringstream lines{std::string(cpuinfo)};
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line);
    for (std::string word; words >> word;)
      if (word == "avx512_bf16" || word == "amx_bf16") return true;
    return false;  // every core lists the same flags: the first line decides
  }
  return false;
}

bool cpu_has_native_bf16() {
  // The CPU does not change while we run: read /proc/cpuinfo once, not at every model load.
  static const bool native = [] {
    std::ifstream in("/proc/cpuinfo");
    if (!in) return false;
    std::ostringstream text;
    text << in.rdbuf();
    return cpuinfo_has_native_bf16(text.str());
  }();
  return native;
}

std::string resolve_precision(const std::string& requested, bool on_cuda, bool native_bf16) {
  if (requested != "auto") return requested;
  if (on_cuda) return "fp16";
  return native_bf16 ? "bf16" : "fp32";
}

std::string choose_measured_precision(const std::string& preferred,
                                      const std::vector<MeasuredPrecision>& measured,
                                      double margin) {
  if (measured.empty()) return preferred;
  auto by_speed = [](const MeasuredPrecision& a, const MeasuredPrecision& b) {
    return a.positions_per_second < b.positions_per_second;
  };
  const auto top = std::max_element(measured.begin(), measured.end(), by_speed);
  const double fastest = top->positions_per_second;
  auto close = [&](const MeasuredPrecision& m) {
    return m.positions_per_second * margin > fastest;
  };
  const auto kept = std::find_if(measured.begin(), measured.end(), [&](const MeasuredPrecision& m) {
    return m.precision == preferred;
  });
  if (kept != measured.end() && close(*kept)) return preferred;
  const auto first_close = std::find_if(measured.begin(), measured.end(), close);
  return (first_close != measured.end() ? first_close : top)->precision;  // none: rates of 0
}

}  // namespace zh
