#include "engine/evaluator_options.h"

namespace zh {

void declare_evaluator_options(Options& o) {
  const char* g = "evaluator";
  // The choices are the backends this program was built with ("torch" only when linked).
  o.add_combo("backend", "material", evaluator_backends(), g,
              "evaluator: torch (a TorchScript network), material (hand-written, weak) or "
              "uniform (no knowledge; tests and benchmarks)");
  o.add_string("model", "", g, "TorchScript model file for the torch backend");
  o.add_string("device", "cpu", g, "cpu, cuda or cuda:N");
  o.add_combo("precision", "fp32", {"fp32", "fp16", "bf16"}, g,
              "network precision: fp16 on CUDA, bf16 on CPU, fp32 anywhere");
  o.add_int("nn_threads", 1, 1, 256, g, "intra-op threads of the torch CPU backend");
  o.add_float("prior_temperature", 1.0, 0.01, 10, g,
              "softmax temperature of the policy over the legal moves (CrazyAra plays 1.7)");
  o.add_int("max_batch", 32, 1, 4096, g, "largest batch the inference service forms");
  o.add_int("max_wait_us", 500, 0, 1000000, g,
            "how long the inference service waits to fill a batch (microseconds)");
}

EvaluatorConfig evaluator_config(const Options& o) {
  EvaluatorConfig c;
  c.backend = o.get_string("backend");
  c.model_path = o.get_string("model");
  c.device = o.get_string("device");
  c.precision = o.get_string("precision");
  c.threads = int(o.get_int("nn_threads"));
  c.prior_temperature = float(o.get_float("prior_temperature"));
  return c;
}

std::string evaluator_signature(const Options& o) {
  std::string s;
  for (const char* name : {"backend", "model", "device", "precision", "nn_threads",
                           "prior_temperature", "max_batch", "max_wait_us"}) {
    const Option& opt = o.at(name);
    s += opt.format(opt.value) + '\n';
  }
  return s;
}

}  // namespace zh
