#pragma once
// HTTP over libcurl: short requests (JSON in, JSON out) and long-lived NDJSON streams.
// Sends `User-Agent: zhbot/<version>` and the Bearer token; TLS peer and host verification
// are always on for https. Nothing here retries: policy lives in LichessClient/StreamRunner.

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/util/clock.h"

namespace zh::bot {

struct HttpSettings {
  std::string base_url = "https://lichess.org";  // scheme://host[:port], no trailing slash
  std::string token;                             // empty: no Authorization header
  std::string user_agent = "zhbot";
  Millis connect_timeout{5000};
  Millis request_timeout{10000};  // whole short request; streams have no total limit
};

struct HttpResponse {
  int status = 0;     // HTTP status; 0 when no response arrived (network error)
  std::string body;   // truncated past kMaxBodyBytes
  std::string error;  // what went wrong at the network level (redacted); empty otherwise
  std::optional<long> retry_after_s;  // Retry-After header, when sent
  Millis elapsed{0};                  // request start to last byte
};

enum class StreamEnd {
  kServerClosed,      // 200 and the server ended the body
  kIdleTimeout,       // no byte (not even a keep-alive line) within the idle timeout
  kCancelled,         // the cancel token fired
  kStoppedByHandler,  // the byte handler returned false
  kNetworkError,      // connection failed or was reset
  kHttpError,         // a status other than 200; `body` holds the error body
};

struct StreamResult {
  StreamEnd end = StreamEnd::kNetworkError;
  int status = 0;
  std::string body;  // non-200 responses only
  std::string error;
  std::optional<long> retry_after_s;
  std::size_t bytes = 0;  // body bytes delivered to the handler
};

class HttpClient {
 public:
  static constexpr std::size_t kMaxBodyBytes = 8 << 20;

  // Throws std::invalid_argument when base_url is not an http(s) URL.
  explicit HttpClient(HttpSettings settings);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  HttpResponse get(std::string_view path);
  // POST with an application/x-www-form-urlencoded body (may be empty). `timeout` replaces
  // the settings' request timeout for this request (a move must not wait 10 s on a dead link).
  HttpResponse post(std::string_view path, std::string_view form_body = {},
                    std::optional<Millis> timeout = std::nullopt);

  // Opens a GET stream and hands each received chunk of a 200 body to `on_bytes`. Returns when
  // the server closes, on a network error, when no byte arrived for `idle_timeout` (measured
  // on `clock`), when `cancel` fires, or when `on_bytes` returns false. Thread-safe.
  // `on_open` (optional) runs once the response headers say 200.
  StreamResult stream(std::string_view path, const std::function<bool(std::string_view)>& on_bytes,
                      Clock& clock, Millis idle_timeout, const CancelToken& cancel,
                      const std::function<void()>& on_open = {});

  const HttpSettings& settings() const { return settings_; }

  // application/x-www-form-urlencoded encoding of one value.
  static std::string url_encode(std::string_view text);

 private:
  struct Handle;
  HttpResponse perform(std::string_view method, std::string_view path, std::string_view body,
                       Millis timeout);
  std::unique_ptr<Handle> acquire();
  void release(std::unique_ptr<Handle> handle);

  HttpSettings settings_;
  std::mutex pool_mutex_;
  // Reused easy handles keep their connection cache, so short requests skip the TCP and TLS
  // handshakes (this is what keeps move POSTs fast).
  std::vector<std::unique_ptr<Handle>> pool_;
};

// The base_url with any user:password@ part masked, for messages.
std::string describe_url(std::string_view url);

}  // namespace zh::bot
