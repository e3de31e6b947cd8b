#include "engine/nn/device_spread.h"

#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace zh {
namespace {

std::atomic<std::uint64_t> g_next_id{1};

}  // namespace

DeviceSpread::DeviceSpread(std::vector<std::shared_ptr<Evaluator>> devices)
    : devices_(std::move(devices)), id_(g_next_id.fetch_add(1)) {
  if (devices_.empty()) throw std::invalid_argument("DeviceSpread needs at least one device");
  for (const auto& d : devices_)
    if (!d) throw std::invalid_argument("DeviceSpread: null evaluator");
}

std::string DeviceSpread::name() const {
  return devices_.front()->name() + " x" + std::to_string(devices_.size());
}

std::size_t DeviceSpread::device_of_this_thread() {
  // Per thread: which device each spread gave it (a thread may serve several spreads).
  thread_local std::unordered_map<std::uint64_t, std::size_t> assigned;
  const auto it = assigned.find(id_);
  if (it != assigned.end()) return it->second;
  const std::size_t d = next_.fetch_add(1, std::memory_order_relaxed) % devices_.size();
  assigned.emplace(id_, d);
  return d;
}

void DeviceSpread::evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) {
  devices_[device_of_this_thread()]->evaluate(inputs, outputs);
}

std::future<void> DeviceSpread::evaluate_async(std::span<const EvalInput> inputs,
                                               std::span<Evaluation> outputs) {
  return devices_[device_of_this_thread()]->evaluate_async(inputs, outputs);
}

}  // namespace zh
