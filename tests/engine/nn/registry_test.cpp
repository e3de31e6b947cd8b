#include "engine/nn/registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/evaluator_loader.h"
#include "engine/nn/backends/uniform.h"
#include "nn_test_util.h"

namespace zh {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Every backend zh_engine builds is there, with nothing but the registry used (no object file a
// linker could drop), highest priority first; `auto` is the first.
TEST(RegistryTest, EveryBuiltInBackendIsRegisteredInPriorityOrder) {
  const std::vector<std::string> expected = {"material", "uniform", "sim"};
  EXPECT_EQ(evaluator_backends(), expected);
  EXPECT_EQ(resolve_evaluator_backend("auto"), "material");
  for (const std::string& name : expected) {
    EvaluatorConfig config = default_evaluator_config();
    config.backend = name;
    EXPECT_EQ(make_evaluator(config)->name(), name);
  }
  EvaluatorConfig config = default_evaluator_config();
  config.backend = "auto";
  EXPECT_EQ(make_evaluator(config)->name(), "material");
}

TEST(RegistryTest, UnknownBackendNamesTheAvailableOnes) {
  EvaluatorConfig config = default_evaluator_config();
  config.backend = "tensorrt";
  const std::string msg = test::make_evaluator_error(config);
  EXPECT_NE(msg.find("unknown evaluator backend \"tensorrt\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("uniform"), std::string::npos) << msg;
  EXPECT_NE(msg.find("material"), std::string::npos) << msg;
}

TEST(RegistryTest, TorchUnlinkedSaysWhy) {
  // This test program does not link zh_nn_torch, so "torch" is known but cannot be built.
  ASSERT_FALSE(contains(evaluator_backends(), "torch"));
  EvaluatorConfig config = default_evaluator_config();
  config.backend = "torch";
  const std::string msg = test::make_evaluator_error(config);
  EXPECT_NE(msg.find("evaluator backend \"torch\""), std::string::npos) << msg;
  EXPECT_TRUE(msg.find("ZH_WITH_TORCH") != std::string::npos ||
              msg.find("does not link") != std::string::npos)
      << msg;
}

TEST(RegistryTest, RejectsNonPositiveTemperature) {
  EvaluatorConfig config = default_evaluator_config();
  config.prior_temperature = 0.0f;
  EXPECT_THROW(make_evaluator(config), std::runtime_error);
}

// Each backend parses its own settings; a setting no parser takes is refused, with the keys the
// backend does take.
TEST(RegistryTest, EachBackendRefusesSettingsItDoesNotTake) {
  EvaluatorConfig config = default_evaluator_config();
  config.backend = "material";
  config.backend_options = "fixed_us=1";
  EXPECT_EQ(test::make_evaluator_error(config),
            "evaluator backend \"material\" takes no backend_options (got \"fixed_us=1\")");
  config.backend = "sim";
  config.backend_options = "fixed_us=1,fixed=2";
  EXPECT_EQ(test::make_evaluator_error(config),
            "sim backend_options: unknown setting 'fixed=2' (fixed_us, per_position_us, "
            "fail_after, fail_batches, fail_rate)");
  config.backend_options = "fixed_us=1";
  EXPECT_EQ(make_evaluator(config)->name(), "sim");
}

// A backend registered from outside the engine: made with its own settings, listed by its
// priority, and asked what the loader needs to know.
TEST(RegistryTest, ARegisteredBackendIsBuiltWithItsOwnSettings) {
  static int depth_seen = -1;
  BackendRegistration b;
  b.name = "custom-test";
  b.priority = -5;  // below every built-in one: `auto` stays what it is
  b.make = [](const EvaluatorConfig&, BackendOptions& own) -> std::unique_ptr<Evaluator> {
    depth_seen = own.take_number("depth", 1);
    return std::make_unique<UniformEvaluator>();
  };
  b.on_device = [](const EvaluatorConfig& c) { return c.device == "npu"; };
  EXPECT_TRUE(register_evaluator_backend(b));
  EXPECT_EQ(evaluator_backends().back(), "custom-test");
  EXPECT_EQ(resolve_evaluator_backend("auto"), "material");
  EvaluatorConfig config = default_evaluator_config();
  config.backend = "custom-test";
  config.backend_options = "depth=7";
  EXPECT_NE(make_evaluator(config), nullptr);
  EXPECT_EQ(depth_seen, 7);
  config.backend_options = "depth=seven";
  EXPECT_EQ(test::make_evaluator_error(config),
            "custom-test backend_options: depth=seven is not a number");
  EXPECT_FALSE(evaluator_on_device(config));
  config.device = "npu";
  EXPECT_TRUE(evaluator_on_device(config));
  EXPECT_FALSE(evaluator_is_weightless(config));
  EXPECT_FALSE(evaluator_on_cpu(config).has_value());
}

TEST(BackendOptionsTest, ParsesKeyValuePairsAndRefusesMalformedOnes) {
  BackendOptions own("x", "a=1,b=two");
  EXPECT_EQ(own.take("b"), "two");
  EXPECT_EQ(own.take("c"), std::nullopt);
  EXPECT_THROW(own.check_all_taken(), std::invalid_argument);  // a is left
  EXPECT_EQ(own.take_number("a", 0), 1);
  EXPECT_NO_THROW(own.check_all_taken());
  EXPECT_NO_THROW(BackendOptions("x", "").check_all_taken());
  EXPECT_THROW(BackendOptions("x", "a"), std::invalid_argument);
  EXPECT_THROW(BackendOptions("x", "=1"), std::invalid_argument);
  EXPECT_THROW(BackendOptions("x", "a=1,a=2"), std::invalid_argument);
  BackendOptions numbers("x", "n=2x,e=");
  EXPECT_THROW(numbers.take_number("n", 0), std::invalid_argument);
  EXPECT_THROW(numbers.take_number("e", 0.0), std::invalid_argument);
}

}  // namespace
}  // namespace zh
