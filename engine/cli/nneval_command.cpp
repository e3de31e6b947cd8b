// `zhbot nneval`: the engine's own evaluation of the positions in a training shard, one JSON
// line each (value, and the prior of every legal move by policy index). training/export.py
// compares it with PyTorch's output on the same records, so an exported network is known to
// mean the same thing inside zhbot as it did in training.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "engine/cli/commands.h"
#include "engine/datagen/shard_io.h"
#include "engine/evaluator_loader.h"
#include "engine/nn/encoder.h"
#include "engine/nn/policy_map.h"
#include "engine/nn/registry.h"

namespace zh::cli {
namespace {

struct NnevalArgs {
  EvaluatorConfig evaluator = default_evaluator_config();
  std::string records;
  std::size_t count = 64;
};

void run_nneval(const NnevalArgs& a) {
  const std::vector<datagen::Record> records = datagen::read_shard(a.records);
  const InputFormat format =
      datagen::check_header(datagen::read_shard_header(a.records), a.records);
  auto evaluator = make_evaluator(a.evaluator);
  const std::size_t n = std::min(a.count, records.size());
  std::vector<float> stored(std::size_t(input_size(format))), encoded(stored.size());
  for (std::size_t i = 0; i < n; ++i) {
    const datagen::Record& r = records[i];
    EvalInput input = datagen::eval_input_of(r);
    // The record must hold exactly what the encoder makes of its FEN and last moves.
    datagen::unpack_planes(r, stored, format);
    encode_position(input, encoded, true, format);
    Evaluation out;
    evaluator->evaluate({&input, 1}, {&out, 1});
    nlohmann::json priors = nlohmann::json::array();
    for (const MovePrior& p : out.priors)
      priors.push_back({policy_index(p.move, input.position.side_to_move()), p.prior});
    nlohmann::json line{{"record", i},
                        {"value", out.value},
                        {"planes_match", stored == encoded},
                        {"priors", priors}};
    std::printf("%s\n", line.dump().c_str());
  }
}

}  // namespace

void add_nneval_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "nneval", "print the evaluator's value and priors for shard records (JSON lines)");
  auto a = std::make_shared<NnevalArgs>();
  a->evaluator.backend = "torch";
  // fp32 unless asked: nneval is how an exported network is checked against PyTorch's fp32.
  a->evaluator.settings["precision"] = "fp32";
  cmd->add_option("--model,-m", a->evaluator.settings["model"], "TorchScript model file (.pt)");
  cmd->add_option("--backend", a->evaluator.backend, "evaluator backend")
      ->default_str(a->evaluator.backend);
  cmd->add_option("--precision", a->evaluator.settings["precision"],
                  "auto, fp32, bf16 (CPU), fp16 (CUDA) or int8 (CPU)")
      ->default_str(a->evaluator.setting("precision"));
  cmd->add_option("--records", a->records, "a training shard (.zhrec)")->required();
  cmd->add_option("--count", a->count, "records to evaluate (from the start)")
      ->default_str(std::to_string(a->count));
  cmd->callback([a] { run_nneval(*a); });
}

}  // namespace zh::cli
