// `zhbot nnbench`: positions per second of the neural-network path at several batch sizes,
// (a) the raw forward pass, (b) the whole evaluate() path and (c) the InferenceService fed
// by producer threads, measured side by side so their ratios survive a noisy machine.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <deque>
#include <future>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/chess/game.h"
#include "engine/cli/commands.h"
#include "engine/evaluator_loader.h"
#include "engine/nn/encoder.h"
#include "engine/nn/inference_service.h"
#include "engine/nn/registry.h"
#if ZH_HAVE_TORCH
#include "engine/nn/backends/torch_evaluator.h"
#include "engine/util/clock.h"
#endif

namespace zh::cli {
namespace {

struct NnbenchOptions {
  std::string model;
  std::string batches = "1,8,16,64";
  // Evaluator options by their declared names (nn_threads, device, precision, backend_options,
  // max_wait_us), given under nnbench's flags; unset ones keep the declared default.
  std::map<std::string, std::string> evaluator_options;
  double seconds = 1.0;  // per measurement
  int runs = 5;          // measurements per figure; the median is printed
  int producers = 4;
  int window = 0;  // outstanding requests per producer; 0: 2 * batch / producers
};

#if ZH_HAVE_TORCH
// The declared evaluator options with nnbench's flags applied (OptionError for a bad value).
Options evaluator_options(const NnbenchOptions& o) {
  Options options;
  declare_evaluator_options(options);
  for (const auto& [name, value] : o.evaluator_options)
    if (!value.empty()) options.set(name, value);
  return options;
}

double seconds_since(TimePoint start) {
  return std::chrono::duration<double>(zh::steady_clock().now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::vector<int> parse_batches(const std::string& text) {
  std::vector<int> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    int b = 0;
    try {
      b = std::stoi(item);
    } catch (const std::exception&) {
      b = 0;
    }
    if (b < 1 || b > 4096) throw std::runtime_error("--batch: '" + item + "' is not a batch size");
    out.push_back(b);
  }
  if (out.empty()) throw std::runtime_error("--batch: no batch sizes given");
  return out;
}

// Positions from random crazyhouse games (fixed seed): openings, middlegames with pockets.
std::vector<EvalInput> position_pool(std::size_t count) {
  std::vector<EvalInput> pool;
  std::mt19937 rng(2024);
  while (pool.size() < count) {
    Game game;
    for (int ply = 0; ply < 80 && pool.size() < count; ++ply) {
      const MoveList moves = game.position().legal_moves();
      if (moves.empty()) break;
      if (ply >= 4) pool.push_back({game.position(), 0});
      game.play(moves[static_cast<int>(rng() % moves.size())]);
    }
  }
  return pool;
}

// Calls `fn` (which handles `per_call` positions) for `seconds`; returns positions/s.
template <typename Fn>
double rate_of(Fn&& fn, int per_call, double seconds) {
  fn();  // not timed: first-call effects
  int calls = 0;
  const auto start = zh::steady_clock().now();
  double elapsed = 0.0;
  do {
    fn();
    ++calls;
    elapsed = seconds_since(start);
  } while (elapsed < seconds || calls < 3);
  return calls * per_call / elapsed;
}

// Lends an evaluator to an InferenceService without giving up ownership.
class Borrowed final : public Evaluator {
 public:
  explicit Borrowed(Evaluator& inner) : inner_(inner) {}
  std::string name() const override { return inner_.name(); }
  void evaluate(std::span<const EvalInput> in, std::span<Evaluation> out) override {
    inner_.evaluate(in, out);
  }

 private:
  Evaluator& inner_;
};

// `producers` threads each keep `window` single-position requests in flight; returns the
// positions/s completed over `seconds` after a short ramp-up.
double service_rate(InferenceService& service, const std::vector<EvalInput>& pool, int producers,
                    int window, double seconds) {
  std::atomic<bool> stop{false};
  std::atomic<long long> completed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < producers; ++t)
    threads.emplace_back([&, t] {
      std::deque<std::future<Evaluation>> pending;
      std::size_t next = static_cast<std::size_t>(t) * 37;
      while (!stop.load(std::memory_order_relaxed)) {
        while (static_cast<int>(pending.size()) < window)
          pending.push_back(service.submit(pool[next++ % pool.size()]));
        pending.front().get();
        pending.pop_front();
        completed.fetch_add(1, std::memory_order_relaxed);
      }
      for (auto& f : pending) f.get();
    });
  std::this_thread::sleep_for(std::chrono::duration<double>(std::min(0.2, seconds / 4)));
  const long long before = completed.load();
  const auto start = zh::steady_clock().now();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  const long long after = completed.load();
  const double elapsed = seconds_since(start);
  stop = true;
  for (auto& th : threads) th.join();
  return static_cast<double>(after - before) / elapsed;
}

int run_nnbench(const NnbenchOptions& o) {
  const std::vector<int> batches = parse_batches(o.batches);
  const Options options = evaluator_options(o);
  EvaluatorConfig config = evaluator_config(options);
  config.backend = "torch";
  config.settings["model"] = o.model;
  BackendOptions own("torch", config.backend_options);  // the torch backend's: layout
  const int max_wait_us = inference_service_config(options).max_wait_us;
  TorchEvaluator torch(torch_config_of(config, own));
  const TorchModelInfo& info = torch.info();
  const int max_batch = *std::max_element(batches.begin(), batches.end());
  const std::vector<EvalInput> pool = position_pool(std::max(256, 4 * max_batch));

  std::printf("nnbench: model %s\n", info.path.c_str());
  std::printf("  device %s, precision %s, %d intra-op thread(s), %s, policy %s\n",
              info.device.c_str(), info.precision.c_str(), info.threads, info.optimization.c_str(),
              info.policy_shape.c_str());
  std::printf("  (a) raw forward on a prepared tensor\n");
  std::printf("  (b) evaluate(): encode planes + forward + softmax over legal moves\n");
  std::printf(
      "  (c) InferenceService(max_batch = batch, max_wait %d us) fed by %d producer "
      "threads submitting single positions\n",
      max_wait_us, o.producers);
  std::printf("  positions/s, median of %d runs of %.1f s each, (a) (b) (c) interleaved\n\n",
              o.runs, o.seconds);
  std::printf("%6s %12s %12s %12s %8s %8s %7s %9s\n", "batch", "(a) raw", "(b) eval", "(c) service",
              "(b)/(a)", "(c)/(a)", "fill", "wait us");
  for (int b : batches) {
    const InputFormat format = torch.input_format();
    std::vector<float> planes(static_cast<std::size_t>(b * input_size(format)));
    encode_batch(std::span(pool.data(), static_cast<std::size_t>(b)), planes, format);
    const auto raw = torch.make_raw_forward(planes, b);
    std::vector<Evaluation> outputs(static_cast<std::size_t>(b));
    std::size_t offset = 0;
    auto full = [&] {  // a different slice of the pool each call, as a search would
      if (offset + b > pool.size()) offset = 0;
      torch.evaluate(std::span(pool.data() + offset, static_cast<std::size_t>(b)), outputs);
      offset += static_cast<std::size_t>(b);
    };
    const int window = o.window > 0 ? o.window : std::max(1, 2 * b / o.producers);
    InferenceService service(std::make_unique<Borrowed>(torch),
                             {.max_batch = b, .max_wait_us = max_wait_us});
    std::vector<double> ra, rb, rc;
    for (int r = 0; r < o.runs; ++r) {
      ra.push_back(rate_of(raw, b, o.seconds));
      rb.push_back(rate_of(full, b, o.seconds));
      rc.push_back(service_rate(service, pool, o.producers, window, o.seconds));
    }
    const double a = median(ra), bb = median(rb), c = median(rc);
    const InferenceStats s = service.stats();
    std::printf("%6d %12.1f %12.1f %12.1f %8.3f %8.3f %7.2f %9.0f\n", b, a, bb, c, bb / a, c / a,
                s.mean_batch_fill, s.mean_queue_wait_us);
    std::fflush(stdout);
  }
  return 0;
}
#else
int run_nnbench(const NnbenchOptions&) {
  throw std::runtime_error(
      "nnbench measures the LibTorch backend, which this build does not include; configure "
      "with -DZH_WITH_TORCH=ON (needs libtorch-dev)");
}
#endif

}  // namespace

void add_nnbench_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "nnbench", "neural-network throughput: raw forward, evaluate(), InferenceService");
  auto o = std::make_shared<NnbenchOptions>();
  cmd->add_option("--model,-m", o->model, "TorchScript model file (.pt)")->required();
  cmd->add_option("--batch,-b", o->batches, "comma-separated batch sizes")->default_str(o->batches);
  // The evaluator's own options under their usual flags: help and default come from the one
  // declaration (engine/evaluator_loader.cpp).
  Options declared;
  declare_evaluator_options(declared);
  auto evaluator_flag = [&](const std::string& flags, const std::string& name) {
    const Option& d = declared.at(name);
    cmd->add_option(flags, o->evaluator_options[name], d.help + " (" + d.allowed() + ")")
        ->default_str(d.format(d.default_value));
  };
  evaluator_flag("--threads,-t", "nn_threads");
  evaluator_flag("--device", "device");
  evaluator_flag("--precision", "precision");
  evaluator_flag("--backend-options", "backend_options");
  cmd->add_option("--seconds", o->seconds, "length of one measurement")
      ->check(CLI::Range(0.05, 60.0))
      ->default_str("1.0");
  cmd->add_option("--runs", o->runs, "measurements per figure (median)")
      ->check(CLI::Range(1, 100))
      ->default_str(std::to_string(o->runs));
  cmd->add_option("--producers", o->producers, "(c): producer threads")
      ->check(CLI::Range(1, 256))
      ->default_str(std::to_string(o->producers));
  cmd->add_option("--window", o->window,
                  "(c): requests in flight per producer (default 2 * batch / producers)")
      ->check(CLI::Range(0, 4096));
  evaluator_flag("--max-wait-us", "max_wait_us");
  cmd->callback([o] { run_nnbench(*o); });
}

}  // namespace zh::cli
