#include "tests/emulator/faults.h"

#include <stdexcept>

namespace zh::emulator {
namespace {

double probability_field(const nlohmann::json& j, const char* name, double fallback) {
  const double p = j.value(name, fallback);
  if (p < 0 || p > 1) throw std::invalid_argument(std::string(name) + " must be within 0..1");
  return p;
}

void merge(StreamFaults& into, const StreamFaults& f) {
  auto pick_min = [](int a, int b) { return a < 0 ? b : (b < 0 ? a : std::min(a, b)); };
  into.drop_after_lines = pick_min(into.drop_after_lines, f.drop_after_lines);
  into.truncate_after_lines = pick_min(into.truncate_after_lines, f.truncate_after_lines);
  into.stall_after_lines = pick_min(into.stall_after_lines, f.stall_after_lines);
  into.drop_probability = std::max(into.drop_probability, f.drop_probability);
  into.garbage_probability = std::max(into.garbage_probability, f.garbage_probability);
  into.unknown_probability = std::max(into.unknown_probability, f.unknown_probability);
  into.duplicate_probability = std::max(into.duplicate_probability, f.duplicate_probability);
  into.slow_ms = std::max(into.slow_ms, f.slow_ms);
  if (f.stall_after_lines >= 0) into.stall_ms = f.stall_ms;
  into.no_heartbeat = into.no_heartbeat || f.no_heartbeat;
}

}  // namespace

bool StreamFaults::any() const {
  return drop_after_lines >= 0 || drop_probability > 0 || truncate_after_lines >= 0 ||
         garbage_probability > 0 || unknown_probability > 0 || duplicate_probability > 0 ||
         slow_ms > 0 || stall_after_lines >= 0 || no_heartbeat;
}

FaultRule fault_rule_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("a fault rule must be a JSON object");
  FaultRule r;
  r.target = j.value("target", r.target);
  r.http.status = j.value("status", 0);
  if (r.http.status != 0 && (r.http.status < 400 || r.http.status > 599))
    throw std::invalid_argument("status must be an HTTP error code (400..599)");
  r.http.ratelimit_body = j.value("ratelimit_body", true);
  r.http.ratelimit_seconds = j.value("ratelimit_seconds", 60);
  auto& s = r.stream;
  s.drop_after_lines = j.value("drop_after_lines", s.drop_after_lines);
  s.drop_probability = probability_field(j, "drop_probability", 0);
  s.truncate_after_lines = j.value("truncate_after_lines", s.truncate_after_lines);
  s.garbage_probability = probability_field(j, "garbage_probability", 0);
  s.unknown_probability = probability_field(j, "unknown_probability", 0);
  s.duplicate_probability = probability_field(j, "duplicate_probability", 0);
  s.slow_ms = j.value("slow_ms", 0);
  s.stall_after_lines = j.value("stall_after_lines", s.stall_after_lines);
  s.stall_ms = j.value("stall_ms", s.stall_ms);
  s.no_heartbeat = j.value("no_heartbeat", false);
  r.probability = probability_field(j, "probability", 1.0);
  r.count = j.value("count", 1);
  r.skip = j.value("skip", 0);
  if (r.count < 0 || r.skip < 0) throw std::invalid_argument("count and skip must be >= 0");
  if (r.http.status == 0 && !s.any())
    throw std::invalid_argument("fault rule for '" + r.target +
                                "' has neither a status nor a stream fault");
  return r;
}

nlohmann::json fault_rule_to_json(const FaultRule& r) {
  const auto& s = r.stream;
  return {{"target", r.target},
          {"status", r.http.status},
          {"ratelimit_body", r.http.ratelimit_body},
          {"ratelimit_seconds", r.http.ratelimit_seconds},
          {"drop_after_lines", s.drop_after_lines},
          {"drop_probability", s.drop_probability},
          {"truncate_after_lines", s.truncate_after_lines},
          {"garbage_probability", s.garbage_probability},
          {"unknown_probability", s.unknown_probability},
          {"duplicate_probability", s.duplicate_probability},
          {"slow_ms", s.slow_ms},
          {"stall_after_lines", s.stall_after_lines},
          {"stall_ms", s.stall_ms},
          {"no_heartbeat", s.no_heartbeat},
          {"probability", r.probability},
          {"count", r.count},
          {"skip", r.skip},
          {"seen", r.seen},
          {"hits", r.hits}};
}

void FaultPlan::add(FaultRule rule) {
  std::lock_guard lock(mu_);
  rules_.push_back(std::move(rule));
}

void FaultPlan::clear() {
  std::lock_guard lock(mu_);
  rules_.clear();
}

void FaultPlan::reseed(std::uint64_t seed) {
  std::lock_guard lock(mu_);
  rng_.seed(seed);
}

bool FaultPlan::matches(const FaultRule& r, const std::string& endpoint, bool is_stream) {
  return r.target == "*" || r.target == endpoint || (is_stream && r.target == "stream");
}

FaultPlan::Decision FaultPlan::decide(const std::string& endpoint, bool is_stream) {
  std::lock_guard lock(mu_);
  Decision d;
  d.stream_seed = rng_();
  for (auto& r : rules_) {
    if (!matches(r, endpoint, is_stream)) continue;
    if (r.count != 0 && r.hits >= r.count) continue;
    if (r.seen++ < r.skip) continue;
    if (r.probability < 1.0 && std::uniform_real_distribution<double>(0, 1)(rng_) >= r.probability)
      continue;
    if (r.http.status != 0) {
      if (d.http) continue;  // one HTTP error per request; the rule stays for later ones
      d.http = r.http;
      ++r.hits;
    } else if (is_stream) {
      merge(d.stream, r.stream);
      ++r.hits;
    }
  }
  return d;
}

nlohmann::json FaultPlan::to_json() const {
  std::lock_guard lock(mu_);
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rules_) out.push_back(fault_rule_to_json(r));
  return out;
}

std::string ratelimit_json_body(const std::string& endpoint, int seconds) {
  const std::string key =
      endpoint == "event_stream" ? "api.stream.event.bearer" : "api." + endpoint + ".bearer";
  return nlohmann::json{{"error", "Too many requests. Try again later."},
                        {"ratelimit", {{"key", key}, {"seconds", seconds}}}}
      .dump();
}

std::string ratelimit_html_body() {
  return "<!DOCTYPE html><html><head><title>lichess.org - too many requests</title></head>"
         "<body><h1>429 Too Many Requests</h1><p>Please slow down.</p></body></html>";
}

}  // namespace zh::emulator
