#pragma once
// What the startup log says about a GPU, and what to check when none is found. Torch-free (the
// torch backend adds the CUDA and cuDNN versions it links), so it is tested on any machine.

#include <optional>
#include <string>
#include <string_view>

namespace zh {

// The checks for a CUDA device that LibTorch cannot see.
std::string missing_gpu_hint();

// One line of `nvidia-smi --query-gpu=name,compute_cap,memory.total --format=csv,noheader`
// ("NVIDIA H100 80GB HBM3, 9.0, 81559 MiB") as "NVIDIA H100 80GB HBM3, compute capability 9.0,
// 81559 MiB"; nullopt when the line is not of that form.
std::optional<std::string> format_gpu_line(std::string_view csv);

// The line above for CUDA device `index` as this process numbers it (CUDA_VISIBLE_DEVICES is
// followed), from nvidia-smi; a note saying why when nvidia-smi cannot tell.
std::string describe_gpu(int index);

}  // namespace zh
