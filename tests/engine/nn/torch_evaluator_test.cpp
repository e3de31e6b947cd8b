// The LibTorch backend against the Python reference outputs (tests/data/nn/reference.json,
// made by make_test_data.py from the same tiny model), and its refusals of bad model files.
#include "engine/nn/backends/torch_evaluator.h"

#include <ATen/Parallel.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "engine/chess/notation.h"
#include "engine/evaluator_loader.h"
#include "engine/log.h"
#include "engine/nn/backends/torch_cpu_fusion.h"
#include "engine/nn/encoder.h"
#include "engine/nn/inference_service.h"
#include "engine/nn/precision.h"
#include "engine/nn/registry.h"
#include "nn_test_util.h"
#include "tests/support/test_paths.h"

namespace zh {
namespace {

using test::nn_data_path;
using test::nn_reference;

TorchConfig torch_config(const std::string& model, float temperature = 1.0f) {
  TorchConfig config;
  config.model_path = nn_data_path(model);
  config.prior_temperature = temperature;
  config.precision = "fp32";  // the Python references are fp32; "auto" may pick bf16
  return config;
}

// The torch settings as the registry hands them to the backend's parser.
EvaluatorConfig registry_config(const TorchConfig& torch) {
  EvaluatorConfig config = default_evaluator_config();
  config.backend = "torch";
  config.device = torch.device;
  config.prior_temperature = torch.prior_temperature;
  config.settings["model"] = torch.model_path;
  config.settings["precision"] = torch.precision;
  config.settings["nn_threads"] = std::to_string(torch.threads);
  return config;
}

// What the shipped configuration's defaults give the torch backend.
TorchConfig shipped_config() {
  BackendOptions none("torch", "");
  return torch_config_of(default_evaluator_config(), none);
}

struct Reference {
  std::string name;
  EvalInput input;
  float value;
  std::map<std::string, std::map<std::string, double>> priors;  // temperature -> uci -> p
};

std::vector<Reference> references() {
  std::vector<Reference> out;
  for (const auto& p : nn_reference().at("positions")) {
    Reference r{
        p.at("name").get<std::string>(),
        {Position::from_fen(p.at("fen").get<std::string>()), p.at("repetitions").get<int>()},
        p.at("value").get<float>(),
        {}};
    for (const auto& [t, priors] : p.at("priors").items()) {
      r.priors[t];  // present even when there is no legal move
      for (const auto& [uci, prior] : priors.items()) r.priors[t][uci] = prior.get<double>();
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<Evaluation> evaluate_all(Evaluator& e, const std::vector<Reference>& refs) {
  std::vector<EvalInput> inputs;
  for (const auto& r : refs) inputs.push_back(r.input);
  std::vector<Evaluation> outputs(inputs.size());
  e.evaluate(inputs, outputs);
  return outputs;
}

void expect_matches(const Reference& r, const Evaluation& e, const std::string& temperature,
                    double tolerance) {
  SCOPED_TRACE(r.name + " T=" + temperature);
  EXPECT_NEAR(e.value, r.value, tolerance);
  const auto& want = r.priors.at(temperature);
  ASSERT_EQ(e.priors.size(), want.size());
  for (const auto& p : e.priors) {
    const std::string uci = to_uci(p.move);
    ASSERT_TRUE(want.count(uci)) << uci << " is not legal for Fairy-Stockfish";
    EXPECT_NEAR(p.prior, want.at(uci), tolerance) << uci;
  }
}

// Every reference position evaluated by `e` matches the Python reference at temperature 1.
void expect_matches_references(Evaluator& e, double tolerance) {
  const auto refs = references();
  const auto outputs = evaluate_all(e, refs);
  for (std::size_t i = 0; i < refs.size(); ++i)
    expect_matches(refs[i], outputs[i], "1.0", tolerance);
}

bool runs_channels_last(const TorchEvaluator& e) {
  return e.info().optimization.find("channels-last") != std::string::npos;
}

// Linking zh_nn_torch is all a program does to have "torch", first in priority (`auto`).
TEST(TorchEvaluatorTest, RegistryOffersTorchWhenLinked) {
  const auto names = evaluator_backends();
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names.front(), "torch");
  EXPECT_EQ(resolve_evaluator_backend("auto"), "torch");
  auto e = make_evaluator(registry_config(torch_config("tiny.pt")));
  EXPECT_EQ(e->name(), "torch");
}

void expect_error_text(const EvaluatorConfig& config, std::vector<std::string> parts);

// Its parser reads the evaluator's network options and one backend option, the layout.
TEST(TorchEvaluatorTest, ItsParserTakesTheNetworkOptionsAndTheLayout) {
  EvaluatorConfig config = registry_config(torch_config("tiny.pt", 1.5f));
  config.device = "cuda:1";
  config.settings["nn_threads"] = "3";
  config.settings["max_batch"] = "64";
  BackendOptions none("torch", "");
  const TorchConfig torch = torch_config_of(config, none);
  EXPECT_EQ(torch.model_path, nn_data_path("tiny.pt"));
  EXPECT_EQ(torch.device, "cuda:1");
  EXPECT_EQ(torch.precision, "fp32");
  EXPECT_EQ(torch.threads, 3);
  EXPECT_EQ(torch.max_batch, 64);
  EXPECT_FLOAT_EQ(torch.prior_temperature, 1.5f);
  config.settings["nn_threads"] = "three";
  EXPECT_THROW(torch_config_of(config, none), std::invalid_argument);
  config.settings["nn_threads"] = "1";
  EXPECT_EQ(torch.layout, "auto");
  for (const char* layout : {"auto", "nchw", "channels-last"}) {
    BackendOptions own("torch", std::string("layout=") + layout);
    EXPECT_EQ(torch_config_of(config, own).layout, layout);
  }
  config.backend_options = "layout=nhwc";
  expect_error_text(config, {"layout=nhwc is not one of auto, nchw, channels-last"});
  config.backend_options = "fixed_us=1";
  expect_error_text(config, {"torch backend_options: unknown setting 'fixed_us=1' (layout)"});
  config.backend_options = "";
  // On a GPU it is a device (failover applies) whose stand-in is itself on the CPU.
  EXPECT_TRUE(evaluator_on_device(config));
  const std::optional<EvaluatorConfig> cpu = evaluator_on_cpu(config);
  ASSERT_TRUE(cpu.has_value());
  EXPECT_EQ(cpu->device, "cpu");
  EXPECT_EQ(cpu->backend, "torch");
  config.device = "cpu";
  EXPECT_FALSE(evaluator_on_device(config));
}

// The network in models/ is what the shipped configuration plays with: the defaults name it,
// it is found from the build tree, and it judges material the right way round.
TEST(TorchEvaluatorTest, TheShippedNetworkIsTheDefaultAndLoads) {
  EXPECT_EQ(default_evaluator_config().backend, "torch");
  const TorchConfig config = shipped_config();
  TorchEvaluator e(config);
  // `auto` runs its int8 file on a CPU without native bf16, the fp32 file elsewhere.
  const bool int8 = !cpu_has_native_bf16();
  EXPECT_EQ(e.info().precision, int8 ? "int8" : "bf16");
  EXPECT_EQ(std::filesystem::path(e.info().path).filename(),
            int8 ? int8_model_path(config.model_path) : config.model_path);
  EXPECT_NE(e.info().metadata.find("\"input_version\": \"2.0\""), std::string::npos);
  const std::vector<EvalInput> inputs = {
      {Position(), 0},
      // White to move, having taken Black's queen (it is in White's pocket): a queen up.
      {Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q] w KQkq - 0 1"), 0},
      // Black to move, a queen down (the value is the side to move's).
      {Position::from_fen("rnb1kbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[Q] b KQkq - 0 1"), 0}};
  std::vector<Evaluation> out(inputs.size());
  e.evaluate(inputs, out);
  EXPECT_LT(std::abs(out[0].value), 0.35f) << "the start position is about level";
  EXPECT_GT(out[1].value, 0.2f) << "a queen up";
  EXPECT_LT(out[2].value, -0.2f) << "a queen down";
  ASSERT_EQ(out[0].priors.size(), 20u);
  double sum = 0;
  for (const MovePrior& p : out[0].priors) sum += p.prior;
  EXPECT_NEAR(sum, 1.0, 1e-4);
}

// The shipped network's int8 file (training/quantize.py): precision int8 finds it beside the
// fp32 file, `auto` runs a file with int8 weights in int8, and it judges like the fp32 network
// it was made from (quantize.py measured the same top move on 94 % of held-out positions).
TEST(TorchEvaluatorTest, TheShippedNetworksInt8FileRunsCloseToItsFp32Network) {
  TorchConfig fp32 = shipped_config();
  fp32.precision = "fp32";
  TorchConfig int8 = fp32;
  int8.precision = "int8";
  TorchEvaluator a(fp32), b(int8);
  EXPECT_EQ(b.info().precision, "int8");
  EXPECT_EQ(b.info().path, int8_model_path(a.info().path));
  EXPECT_NE(b.info().metadata.find("\"weights\": \"int8\""), std::string::npos);
  TorchConfig direct = fp32;
  direct.model_path = int8_model_path(a.info().path);
  direct.precision = "auto";
  EXPECT_EQ(TorchEvaluator(direct).info().precision, "int8");

  std::vector<EvalInput> inputs;
  for (const auto& r : references()) inputs.push_back(r.input);
  std::vector<Evaluation> x(inputs.size()), y(inputs.size());
  a.evaluate(inputs, x);
  b.evaluate(inputs, y);
  int same_best = 0, with_moves = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_NEAR(x[i].value, y[i].value, 0.1) << i;
    ASSERT_EQ(x[i].priors.size(), y[i].priors.size());
    if (x[i].priors.empty()) continue;
    auto best = [](const std::vector<MovePrior>& p) {
      return std::max_element(p.begin(), p.end(),
                              [](auto& l, auto& r) { return l.prior < r.prior; })
          ->move;
    };
    ++with_moves;
    same_best += best(x[i].priors) == best(y[i].priors);
  }
  ASSERT_GT(with_moves, 0);
  EXPECT_GE(same_best * 4, with_moves * 3) << same_best << " of " << with_moves;
}

// Debian 13's LibTorch 2.6 (built with LLVM) fuses on the CPU by default, and compiling the
// fused warm-up kernel ran for minutes: loading a model must turn that off first.
TEST(TorchEvaluatorTest, LoadingTurnsCpuFusionOff) {
  torch::jit::overrideCanFuseOnCPU(true);  // as Debian 13's default
  TorchEvaluator e(torch_config("tiny.pt"));
  EXPECT_FALSE(torch::jit::canFuseOnCPU());
  EXPECT_LT(e.info().load_seconds, 30.0);
}

// OpenMP's thread count is per calling thread; LibTorch 2.6 does not carry the load's setting to
// other threads, so an inference thread ran with one OpenMP worker per core (3-5x slower on a
// shared 2-core machine). Every thread that evaluates must run with the configured count.
TEST(TorchEvaluatorTest, ThreadsStartedAfterTheLoadUseTheConfiguredThreadCount) {
  TorchEvaluator e(torch_config("tiny.pt"));  // threads: 1
  ASSERT_EQ(e.info().threads, 1);
  const auto refs = references();
  std::thread worker([&] {
    at::set_num_threads(2);  // what a fresh thread inherits from OpenMP on a 2-core machine
    evaluate_all(e, refs);
    EXPECT_EQ(at::get_num_threads(), 1);
  });
  worker.join();
  at::set_num_threads(1);  // LibTorch 1.13 also keeps it process-wide: leave it as it was
}

TEST(TorchEvaluatorTest, MatchesPythonReferenceValuesAndPriors) {
  const auto refs = references();
  ASSERT_GE(refs.size(), 9u);
  for (const char* t : {"1.0", "1.7"}) {
    TorchEvaluator e(torch_config("tiny.pt", std::stof(t)));
    EXPECT_EQ(e.info().optimization, "optimize_for_inference");
    EXPECT_EQ(e.info().policy_shape, "[B,5184]");
    EXPECT_NE(e.info().metadata.find("\"input_version\": \"1.0\""), std::string::npos);
    const auto outputs = evaluate_all(e, refs);
    for (std::size_t i = 0; i < refs.size(); ++i) expect_matches(refs[i], outputs[i], t, 1e-4);
  }
}

TEST(TorchEvaluatorTest, SinglePositionsMatchTheBatch) {
  TorchEvaluator e(torch_config("tiny.pt"));
  const auto refs = references();
  const auto batch = evaluate_all(e, refs);
  for (std::size_t i = 0; i < refs.size(); ++i) {
    Evaluation one;
    e.evaluate(std::span<const EvalInput>(&refs[i].input, 1), std::span<Evaluation>(&one, 1));
    EXPECT_NEAR(one.value, batch[i].value, 1e-5);
    ASSERT_EQ(one.priors.size(), batch[i].priors.size());
    for (std::size_t k = 0; k < one.priors.size(); ++k) {
      EXPECT_EQ(one.priors[k].move, batch[i].priors[k].move);
      EXPECT_NEAR(one.priors[k].prior, batch[i].priors[k].prior, 1e-5);
    }
  }
}

TEST(TorchEvaluatorTest, PolicyAsPlanesIsAccepted) {
  TorchEvaluator e(torch_config("tiny_planes.pt"));
  EXPECT_EQ(e.info().policy_shape, "[B,81,8,8]");
  expect_matches_references(e, 1e-4);
}

// bf16 on the CPU runs in channels-last (engine/nn/backends/torch_evaluator.cpp) and must give
// the fp32 reference's values and priors to bf16's precision, for both policy shapes.
TEST(TorchEvaluatorTest, Bf16OnCpuRunsChannelsLastAndMatchesTheReference) {
  for (const char* model : {"tiny.pt", "tiny_planes.pt"}) {
    SCOPED_TRACE(model);
    TorchConfig config = torch_config(model);
    config.precision = "bf16";
    TorchEvaluator e(config);
    EXPECT_TRUE(runs_channels_last(e)) << e.info().optimization;
    expect_matches_references(e, 0.02);
  }
}

// `auto` keeps fp32 in NCHW; either layout can be asked for in any precision, with the same
// results.
TEST(TorchEvaluatorTest, TheLayoutCanBeChosenAndKeepsTheResults) {
  EXPECT_FALSE(runs_channels_last(TorchEvaluator(torch_config("tiny.pt"))));
  TorchConfig fp32 = torch_config("tiny.pt");
  fp32.layout = "channels-last";
  TorchEvaluator e(fp32);
  EXPECT_TRUE(runs_channels_last(e)) << e.info().optimization;
  expect_matches_references(e, 1e-4);
  TorchConfig bf16 = torch_config("tiny.pt");
  bf16.precision = "bf16";
  bf16.layout = "nchw";
  EXPECT_FALSE(runs_channels_last(TorchEvaluator(bf16)));
}

// "auto" through the backend's factory, which the engine and the bot load with: on the CPU it
// times every precision this CPU and the model allow, keeps one, logs the figures, and the next
// load in the process takes the same choice without timing again.
TEST(TorchEvaluatorTest, MeasuredAutoTimesEachPrecisionOnceAndSaysWhatItChose) {
  std::vector<std::string> loaded;
  set_log_sink([&](LogLevel level, std::string_view text) {
    if (level == LogLevel::kInfo && text.rfind("nn: loaded", 0) == 0) loaded.emplace_back(text);
  });
  TorchConfig config = shipped_config();  // an fp32 file with its int8 twin beside it
  ASSERT_EQ(config.precision, "auto");
  const auto first = make_torch_evaluator(config);
  const auto second = make_torch_evaluator(config);
  config.precision = "fp32";
  const auto asked = make_torch_evaluator(config);
  set_log_sink(nullptr);

  ASSERT_EQ(loaded.size(), 3u);
  const std::string chosen = first->info().precision;
  EXPECT_TRUE(chosen == "int8" || chosen == "fp32" || chosen == "bf16") << chosen;
  EXPECT_NE(loaded[0].find(chosen + " (auto)"), std::string::npos) << loaded[0];
  EXPECT_NE(loaded[0].find("measured on this CPU"), std::string::npos) << loaded[0];
  for (const char* p : {"int8 ", "fp32 "}) EXPECT_NE(loaded[0].find(p), std::string::npos) << p;
  EXPECT_EQ(loaded[0].find("bf16 ") != std::string::npos, cpu_has_native_bf16()) << loaded[0];
  EXPECT_EQ(std::filesystem::path(first->info().path).filename(),
            chosen == "int8" ? int8_model_path(config.model_path) : config.model_path);

  EXPECT_EQ(second->info().precision, chosen);
  EXPECT_NE(loaded[1].find("measured at this process's first load"), std::string::npos);
  EXPECT_EQ(loaded[1].find("measured on this CPU"), std::string::npos) << loaded[1];
  EXPECT_EQ(asked->info().precision, "fp32");
  EXPECT_EQ(loaded[2].find("auto"), std::string::npos) << loaded[2];

  std::vector<Evaluation> out(1);
  const std::vector<EvalInput> start = {{Position(), 0}};
  first->evaluate(start, out);
  EXPECT_LT(std::abs(out[0].value), 0.35f) << "the start position is about level";
  EXPECT_EQ(out[0].priors.size(), 20u);
}

// TorchEvaluator itself takes the static rule for "auto" (the measured choice starts from it).
TEST(TorchEvaluatorTest, AutoPrecisionIsResolvedAndReported) {
  TorchConfig config = torch_config("tiny.pt");
  config.precision = "auto";
  TorchEvaluator e(config);
  EXPECT_EQ(e.info().precision, cpu_has_native_bf16() ? "bf16" : "fp32");
  const auto refs = references();
  const auto outputs = evaluate_all(e, refs);
  for (std::size_t i = 0; i < refs.size(); ++i)
    EXPECT_NEAR(outputs[i].value, refs[i].value, 0.05) << refs[i].name;
}

TEST(TorchEvaluatorTest, ConcurrentCallersGetTheSameResults) {
  TorchEvaluator e(torch_config("tiny.pt"));
  const auto refs = references();
  const auto want = evaluate_all(e, refs);
  std::vector<int> bad(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 10; ++round) {
        const auto got = evaluate_all(e, refs);
        for (std::size_t i = 0; i < got.size(); ++i)
          if (std::abs(got[i].value - want[i].value) > 1e-5 ||
              got[i].priors.size() != want[i].priors.size())
            ++bad[t];
      }
    });
  for (auto& th : threads) th.join();
  for (int b : bad) EXPECT_EQ(b, 0);
}

TEST(TorchEvaluatorTest, RawForwardRuns) {
  TorchEvaluator e(torch_config("tiny.pt"));
  std::vector<float> planes(kInputSize);
  encode_position(EvalInput{Position(), 0}, planes);
  auto forward = e.make_raw_forward(planes, 8);
  forward();
  forward();
  EXPECT_THROW(e.make_raw_forward(planes, 0), std::runtime_error);
}

// The way the engine uses it: one model behind an InferenceService, producers submitting
// single positions; results still match Python.
TEST(TorchEvaluatorTest, BehindInferenceServiceMatchesPython) {
  InferenceService service(make_evaluator(registry_config(torch_config("tiny.pt"))),
                           {.max_batch = 8, .max_wait_us = 500});
  const auto refs = references();
  std::vector<std::thread> producers;
  std::vector<std::vector<Evaluation>> got(3, std::vector<Evaluation>(refs.size()));
  for (int t = 0; t < 3; ++t)
    producers.emplace_back([&, t] {
      std::vector<std::future<Evaluation>> pending;
      for (const auto& r : refs) pending.push_back(service.submit(r.input));
      for (std::size_t i = 0; i < refs.size(); ++i) got[t][i] = pending[i].get();
    });
  for (auto& p : producers) p.join();
  for (int t = 0; t < 3; ++t)
    for (std::size_t i = 0; i < refs.size(); ++i) expect_matches(refs[i], got[t][i], "1.0", 1e-4);
}

// --- bad model files and options: a clear error, never a crash -------------------------

void expect_error_text(const EvaluatorConfig& config, std::vector<std::string> parts) {
  const std::string msg = test::make_evaluator_error(config);
  for (const auto& part : parts) EXPECT_NE(msg.find(part), std::string::npos) << msg;
}

// Through the registry, as every command builds it.
void expect_error(const TorchConfig& config, std::vector<std::string> parts) {
  expect_error_text(registry_config(config), std::move(parts));
}

std::string temp_file(const std::string& name, const std::string& bytes) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("zh_nn_test_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

TEST(TorchEvaluatorErrorsTest, MissingOrEmptyPath) {
  TorchConfig config = torch_config("does_not_exist.pt");
  expect_error(config, {"does_not_exist.pt", "does not exist"});
  config.model_path = "";
  expect_error(config, {"needs a model file"});
  config.model_path = zh::test::data_dir();
  expect_error(config, {"is not a file"});
}

TEST(TorchEvaluatorErrorsTest, GarbageAndEmptyFiles) {
  TorchConfig config = torch_config("tiny.pt");
  config.model_path = temp_file("garbage.pt", std::string(4096, '\x5a') + "not a model");
  expect_error(config, {config.model_path, "not a loadable TorchScript model"});
  std::filesystem::remove(config.model_path);
  config.model_path = temp_file("empty.pt", "");
  expect_error(config, {config.model_path, "not a loadable TorchScript model"});
  std::filesystem::remove(config.model_path);
  // A truncated copy of a real model.
  std::ifstream in(nn_data_path("tiny.pt"), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  config.model_path = temp_file("truncated.pt", bytes.substr(0, bytes.size() / 2));
  expect_error(config, {config.model_path, "not a loadable TorchScript model"});
  std::filesystem::remove(config.model_path);
}

TEST(TorchEvaluatorErrorsTest, WrongInputPlanesNamesBothShapes) {
  expect_error(torch_config("wrong_planes.pt"), {"wrong_planes.pt", "[B,30,8,8]", "[B,34,8,8]"});
}

TEST(TorchEvaluatorErrorsTest, WrongPolicyShapeNamesFoundAndExpected) {
  expect_error(torch_config("wrong_policy.pt"),
               {"wrong_policy.pt", "[2,2272]", "[B,5184]", "[B,81,8,8]"});
}

TEST(TorchEvaluatorErrorsTest, SingleOutputIsRefused) {
  expect_error(torch_config("value_only.pt"), {"value_only.pt", "one tensor", "[2,1]"});
}

TEST(TorchEvaluatorErrorsTest, OtherInputVersionIsRefused) {
  expect_error(torch_config("wrong_version.pt"), {"wrong_version.pt", "input version 3.0"});
}

// An int8 file runs at int8 alone, and int8 needs a file to run: each refusal says why.
TEST(TorchEvaluatorErrorsTest, Int8NeedsAnInt8FileAndAnInt8FileNeedsInt8) {
  TorchConfig config = shipped_config();
  config.precision = "fp32";
  config.model_path = int8_model_path(TorchEvaluator(config).info().path);
  for (const char* precision : {"fp32", "bf16"}) {
    config.precision = precision;
    expect_error(config, {"has int8 weights", "precision must be auto or int8", precision});
  }
  config = torch_config("tiny.pt");
  config.precision = "int8";
  expect_error(config,
               {"precision int8 needs its int8 version", "tiny-int8.pt", "training/quantize.py"});
}

// An int8 file beside a model it was not made from, as a model retrained under the same file
// name leaves it: precision int8 refuses it, `auto` runs the fp32 model instead of it.
TEST(TorchEvaluatorErrorsTest, AnInt8FileMadeFromAnotherModelIsNotRun) {
  namespace fs = std::filesystem;
  TorchConfig config = shipped_config();
  config.precision = "fp32";
  const fs::path shipped = TorchEvaluator(config).info().path;
  const fs::path dir = fs::temp_directory_path() / ("zh-int8-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::copy_file(shipped.parent_path() / "zhbot-net-1.pt", dir / "retrained.pt",
                fs::copy_options::overwrite_existing);
  fs::copy_file(int8_model_path(shipped), dir / "retrained-int8.pt",
                fs::copy_options::overwrite_existing);
  config.model_path = (dir / "retrained.pt").string();
  config.precision = "int8";
  expect_error(config,
               {"retrained-int8.pt", "was not made from", "retrained.pt", "training/quantize.py"});
  config.precision = "auto";
  TorchEvaluator e(config);
  EXPECT_EQ(e.info().path, config.model_path);
  EXPECT_EQ(e.info().metadata.find("\"weights\": \"int8\""), std::string::npos);
  if (!cpu_has_native_bf16()) {
    EXPECT_EQ(e.info().precision, "fp32");
  }
  fs::remove_all(dir);
}

TEST(TorchEvaluatorErrorsTest, BadDeviceAndPrecision) {
  TorchConfig config = torch_config("tiny.pt");
  config.device = "tpu";
  expect_error(config, {"unknown device 'tpu'"});
  config.device = "cuda:x";
  expect_error(config, {"cuda:x"});
  config.device = "cpu";
  config.precision = "fp16";
  expect_error(config, {"fp16 needs a CUDA device"});
  config.precision = "int4";
  expect_error(config, {"unknown precision 'int4'"});
  config.precision = "fp32";
  config.threads = 0;
  expect_error(config, {"threads"});
}

// On a machine without CUDA the request fails clearly; with CUDA the model matches Python.
TEST(TorchEvaluatorErrorsTest, CudaRunsOrSaysWhyNot) {
  for (const char* precision : {"fp32", "fp16"}) {
    TorchConfig config = torch_config("tiny.pt");
    config.device = "cuda";
    config.precision = precision;
    std::unique_ptr<Evaluator> e;
    try {
      e = make_evaluator(registry_config(config));
    } catch (const std::runtime_error& error) {
      EXPECT_NE(std::string(error.what()).find("no CUDA device"), std::string::npos)
          << error.what();
      continue;
    }
    const auto refs = references();
    const auto outputs = evaluate_all(*e, refs);
    const double tolerance = std::string(precision) == "fp32" ? 1e-3 : 2e-2;
    for (std::size_t i = 0; i < refs.size(); ++i)
      expect_matches(refs[i], outputs[i], "1.0", tolerance);
  }
}

// The factory every command uses: the daemon's strict mode refuses a model it cannot load
// (naming the file and the problem); uci's fallback mode plays material and says so.
TEST(TorchEvaluatorErrorsTest, StrictFactoryRefusesMissingAndCorruptModels) {
  Options o;
  declare_evaluator_options(o);
  o.set("backend", "torch");
  const std::string corrupt = temp_file("corrupt.pt", std::string(512, '\x01'));
  for (const std::string& path : {nn_data_path("does_not_exist.pt"), corrupt}) {
    o.set("model", path);
    try {
      load_evaluator(o, LoadPolicy::exact());
      ADD_FAILURE() << "expected EvaluatorConfigError for " << path;
    } catch (const EvaluatorConfigError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(path), std::string::npos) << msg;
      EXPECT_TRUE(msg.find("does not exist") != std::string::npos ||
                  msg.find("not a loadable TorchScript model") != std::string::npos)
          << msg;
    }
    const LoadedEvaluator fallback = load_evaluator(o, LoadPolicy::interactive());
    EXPECT_EQ(fallback.evaluator->name(), "material");
    ASSERT_FALSE(fallback.warnings.empty());
    EXPECT_NE(fallback.warnings[0].find(path), std::string::npos) << fallback.warnings[0];
  }
  std::filesystem::remove(corrupt);
  o.set("model", nn_data_path("tiny.pt"));
  const LoadedEvaluator net = load_evaluator(o, LoadPolicy::exact());
  EXPECT_NE(net.service, nullptr);  // a network is batched for every search thread
  EXPECT_TRUE(net.warnings.empty());
}

}  // namespace
}  // namespace zh
