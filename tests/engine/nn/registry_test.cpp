#include "engine/nn/registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine/evaluator_loader.h"

namespace zh {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(RegistryTest, BuiltInBackendsAreListedFirst) {
  const auto names = evaluator_backends();
  ASSERT_GE(names.size(), 2u);
  EXPECT_EQ(names[0], "uniform");
  EXPECT_EQ(names[1], "material");
}

TEST(RegistryTest, MakesBuiltInBackendsByName) {
  EvaluatorConfig config = default_evaluator_config();
  config.backend = "uniform";
  EXPECT_EQ(make_evaluator(config)->name(), "uniform");
  config.backend = "material";
  EXPECT_EQ(make_evaluator(config)->name(), "material");
}

TEST(RegistryTest, UnknownBackendNamesTheAvailableOnes) {
  EvaluatorConfig config = default_evaluator_config();
  config.backend = "tensorrt";
  try {
    make_evaluator(config);
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("tensorrt"), std::string::npos) << msg;
    EXPECT_NE(msg.find("uniform"), std::string::npos) << msg;
    EXPECT_NE(msg.find("material"), std::string::npos) << msg;
  }
}

TEST(RegistryTest, TorchUnlinkedSaysWhy) {
  // This test program does not link zh_nn_torch, so "torch" is not registered here.
  ASSERT_FALSE(contains(evaluator_backends(), "torch"));
  EvaluatorConfig config = default_evaluator_config();
  config.backend = "torch";
  try {
    make_evaluator(config);
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("torch"), std::string::npos) << msg;
    EXPECT_TRUE(msg.find("ZH_WITH_TORCH") != std::string::npos ||
                msg.find("does not link") != std::string::npos)
        << msg;
  }
}

TEST(RegistryTest, RejectsNonPositiveTemperature) {
  EvaluatorConfig config = default_evaluator_config();
  config.prior_temperature = 0.0f;
  EXPECT_THROW(make_evaluator(config), std::runtime_error);
}

std::unique_ptr<Evaluator> make_custom(const EvaluatorConfig&) {
  EvaluatorConfig config = default_evaluator_config();
  config.backend = "uniform";
  return make_evaluator(config);  // a uniform one under another name
}

TEST(RegistryTest, RegisteredBackendBecomesAvailable) {
  EXPECT_TRUE(register_evaluator_backend("custom-test", &make_custom));
  EXPECT_TRUE(contains(evaluator_backends(), "custom-test"));
  EvaluatorConfig config = default_evaluator_config();
  config.backend = "custom-test";
  EXPECT_NE(make_evaluator(config), nullptr);
}

}  // namespace
}  // namespace zh
