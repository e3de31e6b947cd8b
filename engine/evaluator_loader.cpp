#include "engine/evaluator_loader.h"

#include "engine/log.h"
#include "engine/nn/device_spread.h"
#include "engine/nn/failover_evaluator.h"
#include "engine/option_table.h"

namespace zh {

namespace {

// The network that ships in models/ (its card: models/README.md).
constexpr const char* kShippedModel = "zhbot-net-5.pt";

// The evaluator options as declared; evaluator_config() turns them into an EvaluatorConfig,
// whose settings map carries the network's options to the backends that take them.
struct EvaluatorChoice {
  std::string backend, model, device, precision;
  int threads;
  float prior_temperature;
  std::string backend_options;
};

// Built on use: the backend choices are the ones this program registered ("torch" only when
// linked), which static registration may add after this file's own initialisation. The default
// is the backend of highest priority: the network where this program can run one, else the
// hand-written evaluator (and the daemon says so at start).
OptionTable<EvaluatorChoice> backend_options() {
  std::vector<std::string> choices = {"auto"};
  for (std::string& name : evaluator_backends()) choices.push_back(std::move(name));
  return {
      "evaluator",
      {
          {"backend", &EvaluatorChoice::backend,
           Choice{resolve_evaluator_backend("auto"), std::move(choices)},
           "evaluator: torch (a TorchScript network; the default where LibTorch is built "
           "in), material (hand-written, weak; the default without LibTorch), uniform "
           "(no knowledge; tests and benchmarks), sim (a simulated accelerator: "
           "GPU-like latency without a GPU, for measurements and failure tests) or auto (the "
           "first of these this program has)"},
          {"model", &EvaluatorChoice::model, Text{kShippedModel},
           "TorchScript model file for the torch backend: a path, or a bare file name looked "
           "up in $ZHBOT_MODEL_DIR, <prefix>/share/zhbot/models and the source tree's models/"},
          {"device", &EvaluatorChoice::device, Text{"cpu"}, "cpu, cuda or cuda:N"},
          {"precision", &EvaluatorChoice::precision,
           Choice{"auto", {"auto", "fp32", "fp16", "bf16", "int8"}},
           "network precision: auto (fp16 on CUDA; on a CPU bf16 where it is native, else int8 "
           "where the model has an -int8 file, else fp32, unless another of these runs 1.25x as "
           "fast, timed at load), fp32, bf16 (CPU), fp16 (CUDA) or int8 "
           "(CPU: the model's -int8 file, made by training/quantize.py)"},
          {"nn_threads", &EvaluatorChoice::threads, Int{1, 1, 256},
           "intra-op threads of the torch CPU backend"},
          {"prior_temperature", &EvaluatorChoice::prior_temperature, Float{1.0, 0.01, 10},
           "softmax temperature of the policy over the legal moves (CrazyAra plays 1.7)"},
          {"backend_options", &EvaluatorChoice::backend_options, Text{""},
           "settings of the backend itself, key=value,... (as lc0's backend-opts): the sim "
           "backend takes fixed_us (device time per batch, default 190) and per_position_us "
           "(per position, 8.9: a 10x128 network in fp16 on a TU104 GPU), fail_after, "
           "fail_batches and fail_rate (injected failures, engine/nn/backends/sim.h); the torch "
           "backend takes layout (auto: channels-last for bf16 on a CPU, else nchw; nchw; "
           "channels-last); the other backends take none"},
      }};
}

EvaluatorConfig config_of(const EvaluatorChoice& e, int max_batch) {
  EvaluatorConfig c;
  c.backend = resolve_evaluator_backend(e.backend);
  c.device = e.device;
  c.prior_temperature = e.prior_temperature;
  c.settings = {{"model", e.model},
                {"precision", e.precision},
                {"nn_threads", std::to_string(e.threads)},
                {"max_batch", std::to_string(max_batch)}};
  c.backend_options = e.backend_options;
  return c;
}

const OptionTable<InferenceServiceConfig> kServiceOptions{
    "evaluator",
    {
        {"max_batch", &InferenceServiceConfig::max_batch, Int{32, 1, 4096},
         "largest batch the inference service forms"},
        {"max_wait_us", &InferenceServiceConfig::max_wait_us, Int{500, 0, 1000000},
         "how long the inference service waits to fill a batch (microseconds); a batch goes at "
         "once when every search thread is waiting on it"},
        {"batches_in_flight", &InferenceServiceConfig::in_flight, Int{0, 0, 16},
         "batches the inference service runs at once, so the host prepares one while the "
         "device runs another: 0 = auto (2 on cuda and sim, 1 on the CPU)"},
    }};

// The `fallback` option: what `zhbot run` does when the evaluator cannot be built.
enum class EvaluatorFallback { kNone, kMaterial };
struct FallbackChoice {
  EvaluatorFallback fallback;
};

struct FailoverChoice {
  bool enabled;
  int retry_ms;
};

const OptionTable<FailoverChoice> kFailoverOptions{
    "evaluator",
    {
        {"failover", &FailoverChoice::enabled, Bool{true},
         "on a device evaluator (cuda, sim): when it fails while running, games go on with a "
         "fallback (the network on the CPU, else material), the bot reports unhealthy and "
         "declines new challenges (later) until the device works again"},
        {"failover_retry_ms", &FailoverChoice::retry_ms, Int{2000, 0, 600000},
         "how often a failed device is tried again (milliseconds)"},
    }};

const OptionTable<FallbackChoice> kFallbackOptions{
    "evaluator",
    {
        {"fallback", &FallbackChoice::fallback,
         Enum<EvaluatorFallback>{
             "none",
             {{"none", EvaluatorFallback::kNone}, {"material", EvaluatorFallback::kMaterial}}},
         "when the evaluator cannot be loaded, `zhbot run` stops with the reason (none) or plays "
         "with the material evaluator after a loud warning (material); uci and analyse always "
         "fall back"},
    }};

std::string describe(const EvaluatorConfig& c) {
  std::string s = "evaluator '" + c.backend + "'";
  if (const std::string model = c.setting("model"); !model.empty())
    s += " (model file '" + model + "')";
  return s;
}

// "cuda:0,cuda:1" -> {"cuda:0", "cuda:1"}: one evaluator per device.
std::vector<std::string> device_list(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (item.empty())
      throw EvaluatorConfigError("evaluator.device '" + text +
                                 "': an empty entry (write cpu, cuda, cuda:N or a list "
                                 "cuda:0,cuda:1)");
    out.push_back(item);
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

// What games move with while the device is down: the same evaluator on the CPU behind its own
// service where the backend has one, else the material evaluator.
std::shared_ptr<Evaluator> make_fallback(const EvaluatorConfig& config, const Options& options,
                                         std::vector<std::string>& warnings) {
  if (const std::optional<EvaluatorConfig> cpu = evaluator_on_cpu(config)) {
    try {
      InferenceServiceConfig service = kServiceOptions.read(options);
      service.in_flight = 1;
      return std::make_shared<InferenceService>(make_evaluator(*cpu), service);
    } catch (const std::exception& e) {
      warnings.push_back("the network cannot run on the CPU as the failover evaluator (" +
                         std::string(e.what()) + "); a failing device falls back to material");
    }
  }
  EvaluatorConfig material = config;
  material.backend = "material";
  material.backend_options.clear();  // the sim's settings are not the material evaluator's
  return std::shared_ptr<Evaluator>(make_evaluator(material));
}

}  // namespace

void declare_evaluator_options(Options& options) {
  backend_options().declare(options);
  kServiceOptions.declare(options);
  kFallbackOptions.declare(options);
  kFailoverOptions.declare(options);
}

EvaluatorConfig evaluator_config(const Options& options) {
  return config_of(backend_options().read(options), kServiceOptions.read(options).max_batch);
}

InferenceServiceConfig inference_service_config(const Options& options) {
  InferenceServiceConfig c = kServiceOptions.read(options);
  if (c.in_flight == 0) c.in_flight = DeviceProfile::of(options).batches_in_flight();
  return c;
}

EvaluatorConfig default_evaluator_config() {
  return config_of(backend_options().defaults(), kServiceOptions.defaults().max_batch);
}

InferenceServiceConfig default_inference_service_config() {
  Options options;
  declare_evaluator_options(options);
  return inference_service_config(options);
}

namespace {

// The search feeds a GPU threads x batch_size leaves per game; a GPU's throughput keeps growing
// to batches of a few hundred (docs/gpu-engine.md), so max_batch lets several games meet in one
// batch. Each thread keeps two mini-batches there, so the host selects one while the device
// runs the other instead of the game's threads waiting in step with the device.
struct DeviceDefault {
  std::string_view name;
  const char* gpu;
};
constexpr DeviceDefault kGpuDefaults[] = {
    {"threads", "4"}, {"batch_size", "32"}, {"batches_per_thread", "2"}, {"max_batch", "256"}};

}  // namespace

DeviceProfile DeviceProfile::of(const EvaluatorConfig& c) {
  return DeviceProfile(evaluator_on_device(c));
}

const char* DeviceProfile::default_of(std::string_view option) const {
  if (!on_device_) return nullptr;
  for (const DeviceDefault& d : kGpuDefaults)
    if (d.name == option) return d.gpu;
  return nullptr;
}

void DeviceProfile::apply(Options& options) const {
  for (const DeviceDefault& d : kGpuDefaults) {
    const Option* o = options.find(d.name);
    if (o) options.set_default(d.name, on_device_ ? d.gpu : o->format(o->default_value));
  }
}

std::string evaluator_signature(const Options& options) {
  std::string s;
  for (const Option& o : options.all())
    if (o.group == "evaluator") s += o.name + '=' + o.format(o.value) + '\n';
  return s;
}

LoadPolicy LoadPolicy::daemon(const Options& options) {
  return {kFallbackOptions.read(options).fallback == EvaluatorFallback::kMaterial, true};
}

LoadedEvaluator load_evaluator(const Options& given, LoadPolicy policy) {
  Options options = given;
  DeviceProfile::of(options).apply(options);
  EvaluatorConfig config = evaluator_config(options);
  LoadedEvaluator out;
  std::vector<std::unique_ptr<Evaluator>> backends;
  try {
    for (const std::string& device : device_list(config.device)) {
      EvaluatorConfig one = config;
      one.device = device;
      backends.push_back(make_evaluator(one));
    }
  } catch (const std::exception& e) {
    const std::string problem = describe(config) + " cannot be loaded: " + e.what();
    if (!policy.fall_back)
      throw EvaluatorConfigError(problem +
                                 " (fix the evaluator options, or set evaluator.fallback: "
                                 "material to play with the material evaluator instead)");
    out.warnings.push_back(problem);
    out.warnings.push_back("FALLING BACK TO THE MATERIAL EVALUATOR: zhbot will play far weaker");
    config.backend = "material";
    config.backend_options.clear();
    backends.clear();
    backends.push_back(make_evaluator(config));
  }
  out.backend = config.backend;
  if (evaluator_is_weightless(config) && !policy.batch_weightless) {
    out.evaluator = std::shared_ptr<Evaluator>(std::move(backends.front()));
    return out;
  }
  // One service per device; several devices share the games' threads out between them.
  const InferenceServiceConfig service_config = inference_service_config(options);
  std::vector<std::shared_ptr<Evaluator>> spread;
  for (auto& backend : backends) {
    out.services.push_back(std::make_shared<InferenceService>(std::move(backend), service_config));
    spread.push_back(out.services.back());
  }
  out.service = out.services.front();
  out.evaluator = out.services.size() == 1
                      ? std::shared_ptr<Evaluator>(out.service)
                      : std::shared_ptr<Evaluator>(std::make_shared<DeviceSpread>(spread));
  const FailoverChoice failover = kFailoverOptions.read(options);
  if (failover.enabled && DeviceProfile::of(config).on_device()) {
    out.failover = std::make_shared<FailoverEvaluator>(
        out.evaluator, make_fallback(config, options, out.warnings),
        std::chrono::milliseconds(failover.retry_ms), [](bool healthy, const std::string& line) {
          log_message(healthy ? LogLevel::kInfo : LogLevel::kError, line);
        });
    out.evaluator = out.failover;
  }
  return out;
}

InferenceStats LoadedEvaluator::service_stats() const {
  std::vector<InferenceStats> all;
  for (const auto& s : services) all.push_back(s->stats());
  return combine_stats(all, service ? service->config().max_batch : 1);
}

}  // namespace zh
