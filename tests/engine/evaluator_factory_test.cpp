// One evaluator factory for every command: strict (the daemon) and fallback (uci, analyse).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "engine/evaluator_options.h"
#include "engine/nn/backends/uniform.h"

namespace zh {
namespace {

// A network backend whose model cannot be loaded, as a corrupt or missing file would fail.
std::unique_ptr<Evaluator> broken_network(const EvaluatorConfig& config) {
  throw std::runtime_error("model file '" + config.model_path + "': is not a TorchScript archive");
}

// A working network stand-in (weights or not, the factory puts any network behind a service).
std::unique_ptr<Evaluator> working_network(const EvaluatorConfig&) {
  return std::make_unique<UniformEvaluator>();
}

const bool kRegistered = register_evaluator_backend("broken-net", broken_network) &&
                         register_evaluator_backend("working-net", working_network);

Options evaluator_options(const std::string& backend) {
  EXPECT_TRUE(kRegistered);
  Options o;
  declare_evaluator_options(o);
  o.set("backend", backend);
  o.set("model", "nets/zh-6x64.pt");
  return o;
}

TEST(EvaluatorFactory, StrictModeNamesTheFileAndTheProblem) {
  const Options o = evaluator_options("broken-net");
  try {
    load_evaluator(o, EvaluatorLoad::kStrict);
    FAIL() << "expected EvaluatorConfigError";
  } catch (const EvaluatorConfigError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("nets/zh-6x64.pt"), std::string::npos) << msg;
    EXPECT_NE(msg.find("is not a TorchScript archive"), std::string::npos) << msg;
    EXPECT_NE(msg.find("broken-net"), std::string::npos) << msg;
    EXPECT_NE(msg.find("fallback"), std::string::npos) << msg;  // says how to opt out
  }
}

TEST(EvaluatorFactory, FallbackModePlaysMaterialAndWarnsLoudly) {
  const LoadedEvaluator e =
      load_evaluator(evaluator_options("broken-net"), EvaluatorLoad::kFallback);
  ASSERT_NE(e.evaluator, nullptr);
  EXPECT_EQ(e.evaluator->name(), "material");
  EXPECT_EQ(e.backend, "material");
  EXPECT_EQ(e.service, nullptr);
  ASSERT_EQ(e.warnings.size(), 2u);
  EXPECT_NE(e.warnings[0].find("nets/zh-6x64.pt"), std::string::npos) << e.warnings[0];
  EXPECT_NE(e.warnings[1].find("FALLING BACK TO THE MATERIAL EVALUATOR"), std::string::npos);
}

TEST(EvaluatorFactory, NetworksGoBehindOneServiceWeightlessBackendsDoNot) {
  Options o = evaluator_options("working-net");
  o.set("max_batch", "7");
  const LoadedEvaluator net = load_evaluator(o, EvaluatorLoad::kStrict);
  ASSERT_NE(net.service, nullptr);
  EXPECT_EQ(net.evaluator, net.service);
  EXPECT_EQ(net.service->config().max_batch, 7);
  EXPECT_TRUE(net.warnings.empty());

  const LoadedEvaluator material =
      load_evaluator(evaluator_options("material"), EvaluatorLoad::kStrict);
  EXPECT_EQ(material.service, nullptr);
  EXPECT_EQ(material.evaluator->name(), "material");
  // The daemon's games share one evaluation thread, whatever the backend.
  const LoadedEvaluator shared = load_evaluator(
      evaluator_options("material"), EvaluatorLoad::kStrict, EvaluatorSharing::kAllBatched);
  ASSERT_NE(shared.service, nullptr);
  EXPECT_EQ(shared.evaluator->name(), "batched(material)");
}

TEST(EvaluatorFactory, TheFallbackOptionPicksTheDaemonsMode) {
  Options o = evaluator_options("material");
  EXPECT_EQ(o.get_string("fallback"), "none");  // a daemon without a network does not start
  EXPECT_EQ(daemon_evaluator_load(o), EvaluatorLoad::kStrict);
  o.set("fallback", "material");
  EXPECT_EQ(daemon_evaluator_load(o), EvaluatorLoad::kFallback);
  EXPECT_THROW(o.set("fallback", "uniform"), OptionError);
}

TEST(EvaluatorFactory, DefaultsComeFromTheDeclarations) {
  const EvaluatorConfig c = default_evaluator_config();
  EXPECT_EQ(c.backend, "material");
  EXPECT_EQ(c.device, "cpu");
  EXPECT_EQ(c.precision, "auto");
  EXPECT_EQ(c.threads, 1);
  EXPECT_FLOAT_EQ(c.prior_temperature, 1.0f);
  EXPECT_EQ(default_inference_service_config().max_batch, 32);
  EXPECT_EQ(default_inference_service_config().max_wait_us, 500);
}

}  // namespace
}  // namespace zh
