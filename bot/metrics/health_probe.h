#pragma once
// The client side of /healthz: `zhbot healthcheck` asks the daemon's own metrics server whether
// the bot is healthy, so container images need no curl or wget for their HEALTHCHECK.

#include <chrono>
#include <string>

namespace zh::bot {

struct HealthProbeResult {
  bool healthy = false;
  std::string detail;  // one line for the operator: the answer, or why there was none
};

// GET http://127.0.0.1:<port>/healthz. Healthy only on a 200 answer within `timeout`.
HealthProbeResult probe_health(int port, std::chrono::milliseconds timeout);

}  // namespace zh::bot
