#pragma once
// Several devices behind one Evaluator (`evaluator.device: cuda:0,cuda:1`): each device has its
// own InferenceService, and each calling thread sticks to one of them, handed out in turn on
// its first call. A game's search threads live as long as its engine, so the games' threads
// spread evenly over the devices and every batch a device sees comes from its own threads.
//
// Thread-safe (the services are).

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "engine/nn/evaluator.h"

namespace zh {

class DeviceSpread final : public Evaluator {
 public:
  // Throws std::invalid_argument for an empty list or a null evaluator.
  explicit DeviceSpread(std::vector<std::shared_ptr<Evaluator>> devices);

  std::string name() const override;
  void evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) override;
  std::future<void> evaluate_async(std::span<const EvalInput> inputs,
                                   std::span<Evaluation> outputs) override;
  // To the calling thread's device, the only one its batches go to.
  void producer_started() override { devices_[device_of_this_thread()]->producer_started(); }
  void producer_stopped() override { devices_[device_of_this_thread()]->producer_stopped(); }

  std::size_t size() const { return devices_.size(); }
  // The device the calling thread uses (assigned on its first call or here).
  std::size_t device_of_this_thread();

 private:
  std::vector<std::shared_ptr<Evaluator>> devices_;
  std::atomic<std::size_t> next_{0};
  const std::uint64_t id_;  // tells this spread's thread assignments from another's
};

}  // namespace zh
