#pragma once
// Which number format the network runs in. "auto", the default, picks what a 1+1 match chose
// (docs/strength.md): bf16 on a CPU that computes it natively (AVX-512 BF16 or AMX), where
// the network runs several times faster than in fp32; on other CPUs int8 where the model has an
// int8 file beside it (the torch backend decides that: it sees the file), else fp32; fp16 on CUDA,
// as lc0 and CrazyAra run their networks on GPUs (tensor cores; about 2x fp32 in lc0's figures). No
// zhbot CUDA figure exists yet (docs/gpu-engine.md): `precision: fp32` is the way back.
#include <string>
#include <string_view>

namespace zh {

// Whether the "flags" line of a /proc/cpuinfo text lists a native bf16 instruction set.
bool cpuinfo_has_native_bf16(std::string_view cpuinfo);

// The same for this machine, read once (false where /proc/cpuinfo cannot be read).
bool cpu_has_native_bf16();

// The precision to run: `requested` itself, or for "auto" the choice above.
std::string resolve_precision(const std::string& requested, bool on_cuda, bool native_bf16);

}  // namespace zh
