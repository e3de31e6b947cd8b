#pragma once
// A simulated accelerator: behaves like a GPU as the host sees one, without a GPU. Each batch
// of b positions occupies the "device" for latency(b) = fixed_us + per_position_us * b of wall
// time, during which the calling thread sleeps (no CPU core is used); the device runs one batch
// at a time, so two callers overlap their host work with each other's device time, as two
// batches in flight on a CUDA stream would. Values and priors are deterministic functions of
// the position (its zobrist key), so runs are reproducible. Failures can be injected to
// exercise the fallback and health paths: after N good batches, for a window of batches, or
// a fraction of batches (deterministically chosen by batch number).
//
// Thread-safe. Configured by the evaluator's `backend_options` string (parse_sim_options).

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string_view>

#include "engine/nn/backend_options.h"
#include "engine/nn/evaluator.h"

namespace zh {

struct SimConfig {
  double fixed_us = 0.0;         // per batch, whatever its size
  double per_position_us = 0.0;  // per position of the batch
  // Failure injection, by batch number (1, 2, ... in the order batches reach the device):
  std::int64_t fail_after = 0;    // batches that succeed before failures start (0 = never fail)
  std::int64_t fail_batches = 0;  // how many fail from there (0 = all later ones)
  double fail_rate = 0.0;         // share of the other batches that fail, in [0, 1]
};

// The simulated device `backend_options` describes by default: a straight line through lc0's
// published backend benchmark of a 10x128 network in fp16 on a TU104 GPU (the die of the Tesla
// T4), 1.04 ms at batch 96 and 1.90 ms at batch 192 (LeelaChessZero/lc0 pull request 1101;
// docs/gpu-engine.md).
inline constexpr SimConfig kSimDefaults{.fixed_us = 190.0, .per_position_us = 8.9};

// The sim's own settings over kSimDefaults: the keys are SimConfig's fields (fixed_us,
// per_position_us, fail_after, fail_batches, fail_rate). Throws std::invalid_argument naming the
// setting for an unknown key or a value that is not a number.
SimConfig sim_config_of(BackendOptions& own);
// The same from a backend_options string, "fixed_us=200,fail_after=20" ("" is the defaults).
SimConfig parse_sim_options(std::string_view text);

class SimEvaluator final : public Evaluator {
 public:
  // Throws std::invalid_argument for negative latencies or a rate outside [0, 1].
  explicit SimEvaluator(SimConfig config);
  std::string name() const override { return "sim"; }
  // Throws std::runtime_error("sim: injected device failure ...") for a failing batch (after
  // its latency, as a device error surfaces when the host synchronises).
  void evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) override;

  // The device's latency for a batch of b positions, and its throughput at that size.
  std::chrono::microseconds latency(int batch) const;
  double positions_per_second(double batch) const;
  // Batches that reached the device, and the device's busy time, since construction.
  std::int64_t batches() const;
  double busy_seconds() const;

  // The deterministic outputs, exposed for tests.
  static float value_of(const Position& pos);

 private:
  bool fails(std::int64_t batch_number) const;

  const SimConfig config_;
  mutable std::mutex mutex_;
  std::chrono::steady_clock::time_point device_free_{};  // when the device finishes its queue
  std::int64_t batches_ = 0;
  double busy_us_ = 0.0;
};

}  // namespace zh
