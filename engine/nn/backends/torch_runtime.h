#pragma once
// LibTorch's process-wide settings and its names for devices and errors, as the torch backend
// uses them: checked device and precision options, thread counts, the CPU fusion switch, the
// int8 engine, the start-up line about a CUDA device. Includes the torch headers, so only the
// backend's own files (zh_nn_torch) include it.

#include <torch/script.h>

#include <exception>
#include <string>

namespace zh {

// A LibTorch exception's message without the C++ backtrace that c10::Error carries.
std::string torch_message(const std::exception& e);

// "cpu", "cuda" or "cuda:N", checked against the devices LibTorch finds; throws
// std::runtime_error saying what is missing and what to do.
torch::Device parse_device(const std::string& text);

// The dtype of the input planes at a resolved precision (fp32, fp16, bf16 or int8, whose
// model takes fp32 planes); fp16 needs a CUDA device.
c10::ScalarType parse_precision(const std::string& text, const torch::Device& device);

// LibTorch's intra-op threads (process-wide; also caps OpenBLAS's pool); throws below 1.
void set_threads(int threads);

// The same count for the OpenMP pool of the calling thread: every thread that runs the network.
void use_threads_on_this_thread(int threads);

// Turns TorchScript's CPU kernel fusion off (a process-wide flag); set before a model's first run.
void disable_cpu_fusion();

// Runs int8 models on oneDNN's kernels where LibTorch has them.
void use_onednn_for_quantized_models();

// A CUDA device's name, capability and memory, with the CUDA and cuDNN versions.
std::string describe_cuda_device(int index);

}  // namespace zh
