#include "bot/metrics/health_probe.h"

#include <httplib.h>

namespace zh::bot {

namespace {

std::string first_line(const std::string& body) {
  const auto end = body.find('\n');
  return end == std::string::npos ? body : body.substr(0, end);
}

}  // namespace

HealthProbeResult probe_health(int port, std::chrono::milliseconds timeout) {
  const std::string where = "127.0.0.1:" + std::to_string(port) + "/healthz";
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(timeout);
  client.set_read_timeout(timeout);
  client.set_write_timeout(timeout);
  const auto res = client.Get("/healthz");
  if (!res)
    return {false, where + ": no answer (" + httplib::to_string(res.error()) +
                       " error); is zhbot running with this operations.metrics_port?"};
  const std::string answer = "HTTP " + std::to_string(res->status) + " " + first_line(res->body);
  return {res->status == 200, where + ": " + answer};
}

}  // namespace zh::bot
