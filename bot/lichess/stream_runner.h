#pragma once
// Keeps one NDJSON stream (the event stream or a game stream) alive: opens it, splits lines,
// treats a connection without a byte for its idle timeout as dead, and reconnects with
// exponential backoff and jitter. It stops only when told to (cancel), when the line handler is
// done (game over), or when reconnecting cannot help (401/403, 404, other 4xx).

#include <functional>
#include <string>
#include <string_view>

#include "bot/lichess/backoff.h"
#include "bot/lichess/http_client.h"
#include "bot/lichess/random_source.h"
#include "bot/lichess/rate_limit.h"
#include "engine/util/clock.h"

namespace zh::bot {

struct StreamOptions {
  std::string endpoint;  // rate-limit key, e.g. "stream-event"
  std::string path;
  // No default here: the callers pass lichess.stream_idle_timeout_s (bot/config), where the
  // default is declared once. The runner refuses a timeout <= 0.
  Millis idle_timeout{0};
  BackoffParams backoff{Millis(1000), Millis(60000), 2.0, 0.25};
  // A connection that lived this long (or delivered an event) was healthy: the next failure
  // starts the backoff from its initial delay again.
  Millis healthy_after{10000};
};

enum class StreamStop {
  kCancelled,
  kHandlerDone,
  kUnauthorized,  // 401/403
  kNotFound,      // 404
  kClientError,   // other 4xx
};

std::string_view to_string(StreamStop stop);

struct StreamCallbacks {
  // One complete non-empty line; return false to stop the stream for good.
  std::function<bool(std::string_view line)> on_line;
  // The server answered 200: the stream is up (health checks, "online" state).
  std::function<void()> on_connected;
  // The connection ended and will be retried after `delay` (logging, metrics).
  std::function<void(const StreamResult& result, Millis delay)> on_disconnected;
};

class StreamRunner {
 public:
  StreamRunner(HttpClient& http, RateLimitGate& gate, Clock& clock, RandomSource random,
               StreamOptions options);

  StreamStop run(const StreamCallbacks& callbacks, const CancelToken& cancel);

  int connects() const { return connects_; }
  const StreamResult& last_result() const { return last_; }

 private:
  HttpClient& http_;
  RateLimitGate& gate_;
  Clock& clock_;
  RandomSource random_;
  StreamOptions options_;
  int connects_ = 0;
  StreamResult last_;
};

}  // namespace zh::bot
