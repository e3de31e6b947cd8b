// One evaluator loader for every command: strict (the daemon) and fallback (uci, analyse).
#include "engine/evaluator_loader.h"

#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "engine/engine.h"
#include "engine/nn/backends/uniform.h"

namespace zh {
namespace {

BackendRegistration network(std::string name, bool loads) {
  BackendRegistration b;
  b.name = std::move(name);
  b.priority = -10;  // never `auto`
  if (loads)         // a working network stand-in: the loader puts any network behind a service
    b.make = [](const EvaluatorConfig&, BackendOptions&) -> std::unique_ptr<Evaluator> {
      return std::make_unique<UniformEvaluator>();
    };
  else  // a model that cannot be loaded, as a corrupt or missing file would fail
    b.make = [](const EvaluatorConfig& config, BackendOptions&) -> std::unique_ptr<Evaluator> {
      throw std::runtime_error("model file '" + config.setting("model") +
                               "': is not a TorchScript archive");
    };
  // A GPU network: on a device where `device` names one.
  b.on_device = [](const EvaluatorConfig& c) { return c.device.rfind("cuda", 0) == 0; };
  return b;
}

// One that can also run on the CPU: the failover's stand-in is itself there.
BackendRegistration network_with_cpu_stand_in() {
  BackendRegistration b = network("cpu-capable-net", true);
  b.on_cpu = [](const EvaluatorConfig& c) -> std::optional<EvaluatorConfig> {
    EvaluatorConfig cpu = c;
    cpu.device = "cpu";
    return cpu;
  };
  return b;
}

const bool kRegistered = register_evaluator_backend(network("broken-net", false)) &&
                         register_evaluator_backend(network("working-net", true)) &&
                         register_evaluator_backend(network_with_cpu_stand_in());

Options evaluator_options(const std::string& backend) {
  EXPECT_TRUE(kRegistered);
  Options o;
  declare_evaluator_options(o);
  o.set("backend", backend);
  o.set("model", "nets/zh-6x64.pt");
  return o;
}

TEST(EvaluatorLoader, StrictModeNamesTheFileAndTheProblem) {
  const Options o = evaluator_options("broken-net");
  try {
    load_evaluator(o, LoadPolicy::exact());
    FAIL() << "expected EvaluatorConfigError";
  } catch (const EvaluatorConfigError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("nets/zh-6x64.pt"), std::string::npos) << msg;
    EXPECT_NE(msg.find("is not a TorchScript archive"), std::string::npos) << msg;
    EXPECT_NE(msg.find("broken-net"), std::string::npos) << msg;
    EXPECT_NE(msg.find("fallback"), std::string::npos) << msg;  // says how to opt out
  }
}

TEST(EvaluatorLoader, FallbackModePlaysMaterialAndWarnsLoudly) {
  const LoadedEvaluator e =
      load_evaluator(evaluator_options("broken-net"), LoadPolicy::interactive());
  ASSERT_NE(e.evaluator, nullptr);
  EXPECT_EQ(e.evaluator->name(), "material");
  EXPECT_EQ(e.backend, "material");
  EXPECT_EQ(e.service, nullptr);
  ASSERT_EQ(e.warnings.size(), 2u);
  EXPECT_NE(e.warnings[0].find("nets/zh-6x64.pt"), std::string::npos) << e.warnings[0];
  EXPECT_NE(e.warnings[1].find("FALLING BACK TO THE MATERIAL EVALUATOR"), std::string::npos);
}

TEST(EvaluatorLoader, NetworksGoBehindOneServiceWeightlessBackendsDoNot) {
  Options o = evaluator_options("working-net");
  o.set("max_batch", "7");
  const LoadedEvaluator net = load_evaluator(o, LoadPolicy::exact());
  ASSERT_NE(net.service, nullptr);
  EXPECT_EQ(net.evaluator, net.service);
  EXPECT_EQ(net.service->config().max_batch, 7);
  EXPECT_TRUE(net.warnings.empty());

  const LoadedEvaluator material =
      load_evaluator(evaluator_options("material"), LoadPolicy::exact());
  EXPECT_EQ(material.service, nullptr);
  EXPECT_EQ(material.evaluator->name(), "material");
  // The daemon's games share one evaluation thread, whatever the backend.
  const LoadedEvaluator shared =
      load_evaluator(evaluator_options("material"), LoadPolicy{false, true});
  ASSERT_NE(shared.service, nullptr);
  EXPECT_EQ(shared.evaluator->name(), "batched(material)");
}

// Failover wraps whatever backend runs on a device, with the backend's own CPU stand-in where
// its registration has one, else the material evaluator; a backend on the CPU goes unwrapped.
TEST(EvaluatorLoader, FailoverWrapsAnyBackendOnADevice) {
  Options o = evaluator_options("working-net");
  EXPECT_EQ(load_evaluator(o, LoadPolicy::exact()).failover, nullptr);
  o.set("device", "cuda:0");
  const LoadedEvaluator on_device = load_evaluator(o, LoadPolicy::exact());
  ASSERT_NE(on_device.failover, nullptr);
  EXPECT_EQ(on_device.evaluator, on_device.failover);
  EXPECT_EQ(on_device.failover->fallback().name(), "material");
  o.set("backend", "cpu-capable-net");
  const LoadedEvaluator stand_in = load_evaluator(o, LoadPolicy::exact());
  ASSERT_NE(stand_in.failover, nullptr);
  EXPECT_EQ(stand_in.failover->fallback().name(), "batched(uniform)");
  o.set("failover", "false");
  EXPECT_EQ(load_evaluator(o, LoadPolicy::exact()).failover, nullptr);
}

// `auto` is the backend of highest priority this program has.
TEST(EvaluatorLoader, AutoIsTheHighestPriorityBackend) {
  Options o = evaluator_options("auto");
  EXPECT_EQ(evaluator_config(o).backend, "material");
  EXPECT_EQ(load_evaluator(o, LoadPolicy::exact()).backend, "material");
}

TEST(EvaluatorLoader, TheFallbackOptionPicksTheDaemonsPolicy) {
  Options o = evaluator_options("material");
  EXPECT_EQ(o.get_string("fallback"), "none");  // a daemon without a network does not start
  EXPECT_FALSE(LoadPolicy::daemon(o).fall_back);
  EXPECT_TRUE(LoadPolicy::daemon(o).batch_weightless);
  o.set("fallback", "material");
  EXPECT_TRUE(LoadPolicy::daemon(o).fall_back);
  EXPECT_THROW(o.set("fallback", "uniform"), OptionError);
}

TEST(EvaluatorLoader, TheDeviceProfileSizesOnlyWhatADeviceChanges) {
  EXPECT_EQ(DeviceProfile::cpu().default_of("threads"), nullptr);
  EXPECT_STREQ(DeviceProfile::gpu().default_of("max_batch"), "256");
  EXPECT_EQ(DeviceProfile::gpu().default_of("cpuct_init"), nullptr);
  EXPECT_EQ(DeviceProfile::cpu().batches_in_flight(), 1);
  EXPECT_EQ(DeviceProfile::gpu().batches_in_flight(), 2);
  // Where a backend runs is its registration's to say.
  EXPECT_TRUE(kRegistered);
  EvaluatorConfig c = default_evaluator_config();
  EXPECT_FALSE(DeviceProfile::of(c).on_device());
  c.backend = "working-net";
  EXPECT_FALSE(DeviceProfile::of(c).on_device());
  c.device = "cuda:1";
  EXPECT_TRUE(DeviceProfile::of(c).on_device());
  c.backend = "material";  // a weightless backend runs on the CPU whatever the device says
  EXPECT_FALSE(DeviceProfile::of(c).on_device());
  c.backend = "sim";
  EXPECT_TRUE(DeviceProfile::of(c).on_device());
  c.backend = "no-such-backend";
  EXPECT_FALSE(DeviceProfile::of(c).on_device());
}

TEST(EvaluatorLoader, DefaultsComeFromTheDeclarations) {
  const EvaluatorConfig c = default_evaluator_config();
  EXPECT_EQ(c.backend, "material");  // the highest priority here: no torch is linked
  EXPECT_EQ(c.device, "cpu");
  EXPECT_EQ(c.setting("model"), "zhbot-net-5.pt");
  EXPECT_EQ(c.setting("precision"), "auto");
  EXPECT_EQ(c.setting("nn_threads"), "1");
  EXPECT_EQ(c.setting("max_batch"), "32");
  EXPECT_TRUE(c.backend_options.empty());
  EXPECT_FLOAT_EQ(c.prior_temperature, 1.0f);
  EXPECT_EQ(default_inference_service_config().max_batch, 32);
  EXPECT_EQ(default_inference_service_config().max_wait_us, 500);
}

}  // namespace
}  // namespace zh

namespace zh {
namespace {

TEST(EvaluatorLoader, ADeviceGetsGpuSizedDefaultsUnlessTheUserSetThem) {
  Options o;
  Engine::declare_options(o);
  DeviceProfile::of(o).apply(o);
  EXPECT_EQ(o.get_int("threads"), 2);  // the CPU's
  EXPECT_EQ(o.get_int("batch_size"), 16);
  EXPECT_EQ(o.get_int("max_batch"), 32);
  EXPECT_EQ(o.get_int("batches_per_thread"), 1);
  o.set("backend", "sim");    // a device, as torch on cuda is (not linked in this test)
  o.set("batch_size", "24");  // the user's value stays
  DeviceProfile::of(o).apply(o);
  EXPECT_EQ(o.get_int("threads"), 4);
  EXPECT_EQ(o.get_int("batch_size"), 24);
  EXPECT_EQ(o.get_int("max_batch"), 256);
  EXPECT_EQ(o.get_int("batches_per_thread"), 2);
  o.set("backend", "material");
  DeviceProfile::of(o).apply(o);
  EXPECT_EQ(o.get_int("threads"), 2);
  EXPECT_EQ(o.get_int("batches_per_thread"), 1);
  EXPECT_EQ(o.get_int("max_batch"), 32);
  // The engine applies them as its options change.
  Engine engine([](const Options&) -> LoadedEvaluator { return {}; });
  engine.set_option("backend", "sim");
  EXPECT_EQ(engine.options().get_int("threads"), 4);
  engine.set_option("threads", "3");
  engine.set_option("backend", "material");
  EXPECT_EQ(engine.options().get_int("threads"), 3);
  EXPECT_EQ(engine.options().get_int("max_batch"), 32);
}

}  // namespace
}  // namespace zh
