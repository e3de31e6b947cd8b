#pragma once
// `zhbot status`: the running daemon's /status.json fetched over loopback and shown in the
// terminal, with an exit code for scripts.

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

namespace zh::bot {

// The exit codes of `zhbot status` (docs/operators.md lists them).
enum StatusExit : int {
  kStatusHealthy = 0,      // the daemon answered and is healthy
  kStatusUnhealthy = 1,    // it answered: the event stream is down or the evaluator failing
  kStatusUnreachable = 2,  // no answer at that address (not running, another port)
  kStatusBadAnswer = 3,    // an answer that is not a zhbot status (an HTTP error, not JSON)
};

struct StatusFetch {
  StatusExit outcome = kStatusUnreachable;
  nlohmann::json status;  // when outcome is healthy or unhealthy
  std::string error;      // otherwise: why, in one line
};

// GET <base_url>/status.json with libcurl (base_url: "http://127.0.0.1:8080").
StatusFetch fetch_status(const std::string& base_url, std::chrono::milliseconds timeout);

// The status as lines for a terminal: health, connection, evaluator, games, queue, declines,
// matchmaking, finished games. `now_unix_ms` for the ages ("12 s ago").
std::string format_status(const nlohmann::json& status);

}  // namespace zh::bot
