#pragma once
// Helpers shared by the nn tests: the Python reference data in tests/data/nn, the text of a
// backend's refusal, an evaluator that counts its producers.

#include <atomic>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "engine/nn/backends/uniform.h"
#include "engine/nn/registry.h"
#include "tests/support/test_paths.h"

namespace zh::test {

inline std::string nn_data_path(const std::string& name) {
  return zh::test::data_dir() + "/nn/" + name;
}

// tests/data/nn/reference.json, written by tests/data/nn/make_test_data.py.
inline const nlohmann::json& nn_reference() {
  static const nlohmann::json data = [] {
    std::ifstream in(nn_data_path("reference.json"));
    if (!in) throw std::runtime_error("cannot open " + nn_data_path("reference.json"));
    return nlohmann::json::parse(in);
  }();
  return data;
}

// What make_evaluator() says when it refuses `config` ("(no error)" where it does not).
inline std::string make_evaluator_error(const EvaluatorConfig& config) {
  try {
    make_evaluator(config);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

// Uniform priors; counts producer_started() less producer_stopped() (what a wrapper passes on).
class ProducerCounter final : public Evaluator {
 public:
  std::string name() const override { return "producer-counter"; }
  void evaluate(std::span<const EvalInput> in, std::span<Evaluation> out) override {
    UniformEvaluator().evaluate(in, out);
  }
  void producer_started() override { ++producers; }
  void producer_stopped() override { --producers; }
  std::atomic<int> producers{0};
};

}  // namespace zh::test
