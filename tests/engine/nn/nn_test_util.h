#pragma once
// Helpers shared by the nn tests: the Python reference data in tests/data/nn, the text of a
// backend's refusal.

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

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

}  // namespace zh::test
