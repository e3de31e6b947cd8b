// Every metric the Grafana dashboard (deploy/grafana/zhbot-dashboard.json) queries is one the
// daemon exports: the names come from /metrics as rendered with every source attached.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "bot/metrics/metrics.h"

namespace zh::bot {
namespace {

// The metric names /metrics shows (a summary's _sum and _count included).
std::set<std::string> exported_names() {
  Metrics m;
  m.set_evaluator_source([] { return EvaluatorFigures{}; });
  m.set_explorer_source([] { return ExplorerFigures{}; });
  m.observe_move_overhead_ms(1);
  std::set<std::string> names;
  std::istringstream text(m.render());
  for (std::string line; std::getline(text, line);) {
    // "# TYPE <name> <type>"
    std::istringstream words(line);
    std::string hash, type_word, name, type;
    if (!(words >> hash >> type_word >> name >> type) || hash != "#" || type_word != "TYPE")
      continue;
    names.insert(name);
    if (type == "summary" || type == "histogram") {
      names.insert(name + "_sum");
      names.insert(name + "_count");
    }
  }
  return names;
}

// The metric names in the dashboard's queries.
std::set<std::string> queried_names(const nlohmann::json& dashboard) {
  std::set<std::string> names;
  const auto metric_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  };
  for (const auto& panel : dashboard.at("panels"))
    for (const auto& target : panel.value("targets", nlohmann::json::array())) {
      const std::string expr = target.at("expr");
      // Every zhbot_[a-z0-9_]+ in the query.
      for (std::size_t at = expr.find("zhbot_"); at != std::string::npos;) {
        std::size_t end = at + 6;
        while (end < expr.size() && metric_char(expr[end])) ++end;
        names.insert(expr.substr(at, end - at));
        at = expr.find("zhbot_", end);
      }
    }
  return names;
}

TEST(GrafanaDashboard, QueriesOnlyMetricsTheDaemonExports) {
  std::ifstream file(ZH_SOURCE_DIR "/deploy/grafana/zhbot-dashboard.json");
  ASSERT_TRUE(file) << "no dashboard file";
  const nlohmann::json dashboard = nlohmann::json::parse(file);
  const std::set<std::string> exported = exported_names();
  const std::set<std::string> queried = queried_names(dashboard);
  ASSERT_GE(queried.size(), 15u) << "the dashboard's queries were not found";
  for (const auto& name : queried)
    EXPECT_TRUE(exported.count(name)) << name << " is queried but not exported";
  // The figures the operator asked for are all on it.
  for (const char* name :
       {"zhbot_games_total", "zhbot_challenges_declined_total", "zhbot_moves_total",
        "zhbot_move_overhead_ms", "zhbot_stream_reconnects_total", "zhbot_http_errors_total",
        "zhbot_evaluator_healthy", "zhbot_nodes_per_second", "zhbot_inference_batch_fill"})
    EXPECT_TRUE(queried.count(name)) << name << " is not on the dashboard";
}

}  // namespace
}  // namespace zh::bot
