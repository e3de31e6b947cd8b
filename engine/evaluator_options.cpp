#include "engine/evaluator_options.h"

#include "engine/option_table.h"

namespace zh {

namespace {

// The network that ships in models/ (its card: models/README.md).
constexpr const char* kShippedModel = "zhbot-net-2.pt";

// The network where this program can run one; a build without LibTorch plays with the
// hand-written evaluator (and the daemon says so at start).
const char* default_backend() { return has_evaluator_backend("torch") ? "torch" : "material"; }

// Built on use: the backend choices are the ones this program registered ("torch" only when
// linked), which static registration may add after this file's own initialisation.
OptionTable<EvaluatorConfig> backend_options() {
  return {"evaluator",
          {
              {"backend", &EvaluatorConfig::backend, Choice{default_backend(), evaluator_backends()},
               "evaluator: torch (a TorchScript network; the default where LibTorch is built "
               "in), material (hand-written, weak; the default without LibTorch) or uniform "
               "(no knowledge; tests and benchmarks)"},
              {"model", &EvaluatorConfig::model_path, Text{kShippedModel},
               "TorchScript model file for the torch backend: a path, or a bare file name looked "
               "up in $ZHBOT_MODEL_DIR, <prefix>/share/zhbot/models and the source tree's models/"},
              {"device", &EvaluatorConfig::device, Text{"cpu"}, "cpu, cuda or cuda:N"},
              {"precision", &EvaluatorConfig::precision,
               Choice{"auto", {"auto", "fp32", "fp16", "bf16"}},
               "network precision: auto (bf16 on a CPU with native bf16, else fp32), fp32, "
               "bf16 (CPU) or fp16 (CUDA)"},
              {"nn_threads", &EvaluatorConfig::threads, Int{1, 1, 256},
               "intra-op threads of the torch CPU backend"},
              {"prior_temperature", &EvaluatorConfig::prior_temperature, Float{1.0, 0.01, 10},
               "softmax temperature of the policy over the legal moves (CrazyAra plays 1.7)"},
          }};
}

const OptionTable<InferenceServiceConfig> kServiceOptions{
    "evaluator",
    {
        {"max_batch", &InferenceServiceConfig::max_batch, Int{32, 1, 4096},
         "largest batch the inference service forms"},
        {"max_wait_us", &InferenceServiceConfig::max_wait_us, Int{500, 0, 1000000},
         "how long the inference service waits to fill a batch (microseconds)"},
    }};

struct FallbackChoice {
  EvaluatorFallback fallback;
};

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
  if (!c.model_path.empty()) s += " (model file '" + c.model_path + "')";
  return s;
}

bool weightless(const std::string& backend) {
  return backend == "uniform" || backend == "material";
}

}  // namespace

void declare_evaluator_options(Options& options) {
  backend_options().declare(options);
  kServiceOptions.declare(options);
  kFallbackOptions.declare(options);
}

EvaluatorConfig evaluator_config(const Options& options) { return backend_options().read(options); }

InferenceServiceConfig inference_service_config(const Options& options) {
  return kServiceOptions.read(options);
}

EvaluatorFallback evaluator_fallback(const Options& options) {
  return kFallbackOptions.read(options).fallback;
}

EvaluatorConfig default_evaluator_config() { return backend_options().defaults(); }

InferenceServiceConfig default_inference_service_config() { return kServiceOptions.defaults(); }

std::string evaluator_signature(const Options& options) {
  std::string s;
  for (const Option& o : options.all())
    if (o.group == "evaluator") s += o.name + '=' + o.format(o.value) + '\n';
  return s;
}

EvaluatorLoad daemon_evaluator_load(const Options& options) {
  return evaluator_fallback(options) == EvaluatorFallback::kMaterial ? EvaluatorLoad::kFallback
                                                                     : EvaluatorLoad::kStrict;
}

LoadedEvaluator load_evaluator(const Options& options, EvaluatorLoad mode,
                               EvaluatorSharing sharing) {
  EvaluatorConfig config = evaluator_config(options);
  LoadedEvaluator out;
  std::unique_ptr<Evaluator> backend;
  try {
    backend = make_evaluator(config);
  } catch (const std::exception& e) {
    const std::string problem = describe(config) + " cannot be loaded: " + e.what();
    if (mode == EvaluatorLoad::kStrict)
      throw EvaluatorConfigError(problem +
                                 " (fix the evaluator options, or set evaluator.fallback: "
                                 "material to play with the material evaluator instead)");
    out.warnings.push_back(problem);
    out.warnings.push_back("FALLING BACK TO THE MATERIAL EVALUATOR: zhbot will play far weaker");
    config.backend = "material";
    backend = make_evaluator(config);
  }
  out.backend = config.backend;
  if (weightless(config.backend) && sharing == EvaluatorSharing::kNetworksBatched) {
    out.evaluator = std::shared_ptr<Evaluator>(std::move(backend));
    return out;
  }
  out.service =
      std::make_shared<InferenceService>(std::move(backend), inference_service_config(options));
  out.evaluator = out.service;
  return out;
}

}  // namespace zh
