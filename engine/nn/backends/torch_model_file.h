#pragma once
// A TorchScript model file as the torch backend reads it: loaded with its zhbot.json, the int8
// file that precision int8 (or auto) runs in its place, and the shape of what it returns. Every
// failure is a std::runtime_error that names the file. Includes the torch headers, so only the
// backend's own files (zh_nn_torch) include it.

#include <torch/script.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "engine/nn/model_metadata.h"

namespace zh {

// "model file 'PATH': WHAT".
std::runtime_error model_error(const std::string& path, const std::string& what);

// "[B,C,...]": a tensor's sizes, for error messages.
std::string shape_of(const at::Tensor& t);

struct Heads {
  at::Tensor value;
  at::Tensor policy;
};

// The model's output as (value, policy); throws when it is not a tuple or list of two tensors.
Heads split_outputs(const c10::IValue& out, const std::string& path);

// value [B,1] or [B]; policy [B,5184] or [B,81,8,8].
bool value_shape_ok(const at::Tensor& v, int64_t batch);
bool policy_shape_ok(const at::Tensor& p, int64_t batch);

// The input planes the model's first convolution takes, or -1 when it has none.
int64_t first_conv_planes(const torch::jit::Module& module);

struct LoadedModule {
  torch::jit::Module module;
  std::string metadata;  // the zhbot.json text, empty when the file has none
  ModelMetadata parsed;
};

// Loads a TorchScript file on the CPU with its zhbot.json, checked (engine/nn/model_metadata.h).
LoadedModule load_module(const std::string& path);

// Precision int8 runs a model file with int8 weights: the configured one when it has them,
// else its int8 sibling (int8_model_path), which then replaces `path` and `loaded`. Checks
// that the request can be met; returns the precision to run. `from_auto`: int8 was chosen by
// `auto`, which runs the fp32 file instead of a sibling made from another model (an explicit
// int8 refuses it).
std::string settle_int8(const std::string& requested, std::string& path, LoadedModule& loaded,
                        bool on_cuda, bool from_auto);

}  // namespace zh
