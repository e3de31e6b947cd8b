#pragma once
// Seeded fault injection per endpoint or stream: HTTP errors (429 with a `ratelimit` body or a
// bare HTML page, 500/502/503) and stream damage (drops, truncated and garbage lines,
// unknown events, duplicates, slow or stalled streams, missing heartbeats).
// Thread-safe; the same seed and request order give the same faults.

#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace zh::emulator {

struct StreamFaults {
  int drop_after_lines = -1;         // close the connection after this many event lines
  double drop_probability = 0;       // per line: close the connection instead of sending it
  int truncate_after_lines = -1;     // after N lines send half of the next one, then close
  double garbage_probability = 0;    // per line: send a line that is not JSON first
  double unknown_probability = 0;    // per line: send a JSON line of an unknown type first
  double duplicate_probability = 0;  // per line: send it twice
  int slow_ms = 0;                   // delay before every line
  int stall_after_lines = -1;        // after N lines send nothing at all (no heartbeats either)
  int stall_ms = 60'000;             // ... for this long, then close
  bool no_heartbeat = false;         // never send the empty keep-alive lines
  bool any() const;
};

struct HttpFault {
  int status = 0;
  bool ratelimit_body = true;  // 429: JSON body with `ratelimit`; false: lichess's HTML page
  int ratelimit_seconds = 60;  // the `ratelimit.seconds` of that body (tests shorten the wait)
};

struct FaultRule {
  // An endpoint name (see endpoint names in README.md), "stream" for both streams, or "*".
  std::string target = "*";
  HttpFault http;  // status 0: none
  StreamFaults stream;
  double probability = 1.0;  // chance that a matching request is hit
  int count = 1;             // how many requests it hits; 0 = no limit
  int skip = 0;              // matching requests let through before it starts
  // Bookkeeping.
  int seen = 0;
  int hits = 0;
};

// Throws std::invalid_argument naming the bad field.
FaultRule fault_rule_from_json(const nlohmann::json& j);
nlohmann::json fault_rule_to_json(const FaultRule& r);

class FaultPlan {
 public:
  explicit FaultPlan(std::uint64_t seed = 1) : rng_(seed) {}

  struct Decision {
    std::optional<HttpFault> http;
    StreamFaults stream;
    std::uint64_t stream_seed = 0;
  };

  void add(FaultRule rule);
  void clear();
  void reseed(std::uint64_t seed);
  // One decision per request: the first rule that hits decides the HTTP error; stream
  // faults of all hitting rules are merged.
  Decision decide(const std::string& endpoint, bool is_stream);
  nlohmann::json to_json() const;

 private:
  static bool matches(const FaultRule& r, const std::string& endpoint, bool is_stream);

  mutable std::mutex mu_;
  std::mt19937_64 rng_;
  std::vector<FaultRule> rules_;
};

// The body lichess sends with a keyed 429, and its HTML page for the unkeyed one.
std::string ratelimit_json_body(const std::string& endpoint, int seconds = 60);
std::string ratelimit_html_body();

}  // namespace zh::emulator
