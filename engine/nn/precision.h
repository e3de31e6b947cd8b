#pragma once
// Which number format the network runs in. "auto", the default, starts from what 1+1 matches
// chose (docs/strength.md): bf16 on a CPU that computes it natively (AVX-512 BF16 or AMX), where
// it ran 1.6x fp32 on the CPU it was measured on; on other CPUs int8 where the model has an int8
// file beside it (the torch backend decides that: it sees the file), else fp32. On the CPU the
// torch backend then times every precision this machine and model allow and keeps that choice
// unless another runs kMeasuredMargin times as fast (choose_measured_precision): a CPU that
// lists avx512_bf16 ran bf16 at 0.6 of fp32 and 0.4 of int8 (docs/performance.md). fp16 on
// CUDA, as lc0 and CrazyAra run their networks on GPUs (tensor cores); on an H100 it was no
// faster than fp32 for this small network (docs/gpu-deployment.md): `precision: fp32` is the
// way back.
#include <string>
#include <string_view>
#include <vector>

namespace zh {

// Whether the "flags" line of a /proc/cpuinfo text lists a native bf16 instruction set.
bool cpuinfo_has_native_bf16(std::string_view cpuinfo);

// The same for this machine, read once (false where /proc/cpuinfo cannot be read).
bool cpu_has_native_bf16();

// The precision to run: `requested` itself, or for "auto" the choice above.
std::string resolve_precision(const std::string& requested, bool on_cuda, bool native_bf16);

// A precision and the network's speed in it, measured on this machine.
struct MeasuredPrecision {
  std::string precision;
  double positions_per_second = 0;
};

// How much faster a precision must run than the preferred one for `auto` to take it instead: a
// clear margin, so that timing noise on a loaded machine does not change the choice from one
// start to the next.
inline constexpr double kMeasuredMargin = 1.25;

// `preferred` (the static rule's choice) unless the fastest of `measured` ran at least `margin`
// times as fast as it; then the first of `measured`, in its order, that ran within `margin` of
// the fastest, so that two precisions close in speed do not swap places from one start to the
// next. `preferred` missing from `measured` (it failed to load): the same rule over the rest.
// Empty `measured`: `preferred`.
std::string choose_measured_precision(const std::string& preferred,
                                      const std::vector<MeasuredPrecision>& measured,
                                      double margin = kMeasuredMargin);

}  // namespace zh
