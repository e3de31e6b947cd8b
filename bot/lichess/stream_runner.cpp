#include "bot/lichess/stream_runner.h"

#include <spdlog/spdlog.h>

#include <stdexcept>
#include <utility>

#include "bot/lichess/ndjson_reader.h"

namespace zh::bot {

std::string_view to_string(StreamStop stop) {
  switch (stop) {
    case StreamStop::kCancelled:
      return "cancelled";
    case StreamStop::kHandlerDone:
      return "done";
    case StreamStop::kUnauthorized:
      return "unauthorized";
    case StreamStop::kNotFound:
      return "not found";
    case StreamStop::kClientError:
      return "client error";
  }
  return "?";
}

StreamRunner::StreamRunner(HttpClient& http, RateLimitGate& gate, Clock& clock, RandomSource random,
                           StreamOptions options)
    : http_(http),
      gate_(gate),
      clock_(clock),
      random_(std::move(random)),
      options_(std::move(options)) {
  if (options_.idle_timeout <= Millis(0))
    throw std::invalid_argument("stream " + options_.path + ": the idle timeout must be > 0");
}

StreamStop StreamRunner::run(const StreamCallbacks& callbacks, const CancelToken& cancel) {
  Backoff backoff(options_.backoff, random_);
  for (;;) {
    if (cancel.cancelled()) return StreamStop::kCancelled;
    if (const Millis paused = gate_.remaining(options_.endpoint); paused.count() > 0) {
      if (!clock_.sleep_for(paused, cancel)) return StreamStop::kCancelled;
      continue;
    }

    NdjsonReader reader;
    bool lines_seen = false;
    const auto on_line = [&](std::string_view line) {
      lines_seen = true;
      try {
        return callbacks.on_line(line);
      } catch (const std::exception& e) {
        // A handler bug must not take the stream down with it.
        spdlog::error("{}: line handler failed: {}", options_.endpoint, e.what());
        return true;
      }
    };
    const TimePoint opened = clock_.now();
    last_ = http_.stream(
        options_.path, [&](std::string_view bytes) { return reader.feed(bytes, on_line); }, clock_,
        options_.idle_timeout, cancel,
        [&] {
          ++connects_;
          if (callbacks.on_connected) callbacks.on_connected();
        });

    Millis delay{0};
    switch (last_.end) {
      case StreamEnd::kCancelled:
        return StreamStop::kCancelled;
      case StreamEnd::kStoppedByHandler:
        return StreamStop::kHandlerDone;
      case StreamEnd::kHttpError:
        if (last_.status == 429) {
          delay = rate_limit_pause(last_.body, last_.retry_after_s);
          gate_.block(options_.endpoint, delay);
          break;
        }
        if (last_.status == 401 || last_.status == 403) return StreamStop::kUnauthorized;
        if (last_.status == 404) return StreamStop::kNotFound;
        if (last_.status < 500) return StreamStop::kClientError;
        delay = backoff.next();
        break;
      case StreamEnd::kServerClosed:
      case StreamEnd::kIdleTimeout:
      case StreamEnd::kNetworkError:
        if (lines_seen || clock_.now() - opened >= options_.healthy_after) backoff.reset();
        delay = backoff.next();
        break;
    }
    if (callbacks.on_disconnected) callbacks.on_disconnected(last_, delay);
    if (last_.status == 429) continue;  // the gate check at the top does the waiting
    if (!clock_.sleep_for(delay, cancel)) return StreamStop::kCancelled;
  }
}

}  // namespace zh::bot
