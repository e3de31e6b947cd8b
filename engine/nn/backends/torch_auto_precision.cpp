// Precision "auto" on the CPU, measured: a CPU's flags do not tell how fast LibTorch runs each
// number format on it (an Intel Xeon that lists avx512_bf16 ran bf16 at 0.6 of fp32 and 0.4 of
// int8, an AMD EPYC Zen 4 bf16 at 1.6x fp32: docs/performance.md), so the network is
// loaded in each precision this CPU and model allow and a batch is timed in each.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/chess/position.h"
#include "engine/log.h"
#include "engine/nn/backends/torch_evaluator.h"
#include "engine/nn/encoder.h"
#include "engine/nn/model_path.h"
#include "engine/nn/precision.h"
#include "engine/util/clock.h"

namespace zh {
namespace {

constexpr int kTimedBatch = 16;  // the search's mini-batch (search.batch_size)
constexpr int kRounds = 2;       // alternated, so a burst of load hits every candidate alike
constexpr double kRoundSeconds = 0.1;
constexpr int kMinCalls = 3;

// Positions a second of the raw forward pass at kTimedBatch over one round.
double time_forward(const std::function<void()>& forward) {
  const Clock& clock = steady_clock();
  const auto start = clock.now();
  int calls = 0;
  double elapsed = 0;
  while (calls < kMinCalls || elapsed < kRoundSeconds) {
    forward();
    ++calls;
    elapsed = std::chrono::duration<double>(clock.now() - start).count();
  }
  return kTimedBatch * calls / elapsed;
}

std::string describe(const std::vector<MeasuredPrecision>& measured) {
  std::string text;
  for (const MeasuredPrecision& m : measured) {
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.0f", m.positions_per_second);
    text += (text.empty() ? "" : ", ") + m.precision + " " + rate;
  }
  return text;
}

// The choice per model, device and thread count, made once a process: every later load (a new
// game's engine) takes it without timing again, and so the same file, on a machine whose load
// changes.
std::mutex choices_mutex;
std::map<std::string, std::string> choices;

}  // namespace

std::unique_ptr<TorchEvaluator> make_torch_evaluator(const TorchConfig& config) {
  const bool measured = config.precision == "auto" && config.device.rfind("cuda", 0) != 0;
  if (!measured) return std::make_unique<TorchEvaluator>(config);
  const std::string path = resolve_model_path(config.model_path);
  const std::string key = path + "|" + config.device + "|" + std::to_string(config.threads);
  std::lock_guard lock(choices_mutex);  // one measurement at a time, on a quiet network
  if (const auto known = choices.find(key); known != choices.end()) {
    TorchConfig chosen = config;
    chosen.precision = known->second;
    chosen.log_load = false;
    auto e = std::make_unique<TorchEvaluator>(chosen);
    log_message(LogLevel::kInfo, e->load_line("auto") +
                                     " (auto: measured at this process's "
                                     "first load of the network)");
    return e;
  }

  TorchConfig trial = config;
  trial.log_load = false;
  std::vector<std::unique_ptr<TorchEvaluator>> loaded;
  loaded.push_back(std::make_unique<TorchEvaluator>(trial));  // the static rule's choice
  const std::string preferred = loaded[0]->info().precision;
  // A file with int8 weights runs in int8 only.
  const bool int8_file = preferred == "int8" && loaded[0]->info().path == path;
  std::error_code ec;
  for (const char* other : {"bf16", "int8", "fp32"}) {
    if (int8_file || other == preferred) continue;
    if (std::string(other) == "bf16" && !cpu_has_native_bf16()) continue;
    if (std::string(other) == "int8" && !std::filesystem::exists(int8_model_path(path), ec))
      continue;
    trial.precision = other;
    try {
      loaded.push_back(std::make_unique<TorchEvaluator>(trial));
    } catch (const std::exception& e) {
      log_message(LogLevel::kDebug,
                  std::string("nn: precision auto: ") + other + " not measured: " + e.what());
    }
  }

  std::vector<MeasuredPrecision> rates;
  if (loaded.size() > 1) {
    std::vector<std::function<void()>> forwards;
    for (const auto& e : loaded) {
      const std::vector<EvalInput> start(1, EvalInput{Position(), 0});
      std::vector<float> planes(std::size_t(input_size(e->input_format())));
      encode_batch(start, planes, e->input_format());
      forwards.push_back(e->make_raw_forward(planes, kTimedBatch));
      forwards.back()();  // the first call of a fresh batch pays for its allocation
      rates.push_back({e->info().precision, 0});
    }
    for (int round = 0; round < kRounds; ++round)
      for (std::size_t i = 0; i < loaded.size(); ++i)
        rates[i].positions_per_second =  // the best round
            std::max(rates[i].positions_per_second, time_forward(forwards[i]));
  }
  const std::string chosen = choose_measured_precision(preferred, rates);
  choices[key] = chosen;
  std::unique_ptr<TorchEvaluator> kept;
  for (auto& e : loaded)
    if (e->info().precision == chosen) kept = std::move(e);
  loaded.clear();  // the others' memory goes before the search starts
  std::string note = " (auto";
  if (!rates.empty()) {
    char margin[16];
    std::snprintf(margin, sizeof margin, "%.2f", kMeasuredMargin);
    note += ": positions/s at batch " + std::to_string(kTimedBatch) + " measured on this CPU " +
            describe(rates) + "; " + preferred + " is kept unless another runs " + margin +
            "x as fast";
  }
  log_message(LogLevel::kInfo, kept->load_line("auto") + note + ")");
  return kept;
}

}  // namespace zh
