#include "bot/lichess/http_client.h"

#include <curl/curl.h>

#include <chrono>
#include <stdexcept>
#include <utility>

#include "bot/lichess/redact.h"
#include "engine/util/clock.h"

namespace zh::bot {

namespace {

void global_init_once() {
  static const bool done = [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
      throw std::runtime_error("libcurl failed to initialise");
    return true;
  }();
  (void)done;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

struct HeaderList {
  curl_slist* list = nullptr;
  ~HeaderList() { curl_slist_free_all(list); }
  void add(const std::string& line) { list = curl_slist_append(list, line.c_str()); }
};

std::optional<long> retry_after(CURL* curl) {
  curl_header* header = nullptr;
  if (curl_easy_header(curl, "Retry-After", 0, CURLH_HEADER, -1, &header) != CURLHE_OK)
    return std::nullopt;
  try {
    return std::stol(header->value);
  } catch (const std::exception&) {
    return std::nullopt;  // an HTTP date: not worth parsing, the default pause applies
  }
}

std::string network_error(CURLcode code, const char* detail) {
  std::string text = curl_easy_strerror(code);
  if (detail != nullptr && detail[0] != '\0') text += std::string(": ") + detail;
  return redact(text);
}

}  // namespace

struct HttpClient::Handle {
  CURL* curl = curl_easy_init();
  ~Handle() { curl_easy_cleanup(curl); }
};

HttpClient::HttpClient(HttpSettings settings) : settings_(std::move(settings)) {
  while (!settings_.base_url.empty() && settings_.base_url.back() == '/')
    settings_.base_url.pop_back();
  if (!starts_with(settings_.base_url, "https://") && !starts_with(settings_.base_url, "http://"))
    throw std::invalid_argument("base_url '" + describe_url(settings_.base_url) +
                                "' must start with https:// (or http:// for a local test server)");
  global_init_once();
}

HttpClient::~HttpClient() = default;

std::unique_ptr<HttpClient::Handle> HttpClient::acquire() {
  {
    std::lock_guard lock(pool_mutex_);
    if (!pool_.empty()) {
      auto handle = std::move(pool_.back());
      pool_.pop_back();
      curl_easy_reset(handle->curl);  // keeps the connection cache
      return handle;
    }
  }
  auto handle = std::make_unique<Handle>();
  if (handle->curl == nullptr) throw std::runtime_error("libcurl could not create a handle");
  return handle;
}

void HttpClient::release(std::unique_ptr<Handle> handle) {
  std::lock_guard lock(pool_mutex_);
  if (pool_.size() < 8) pool_.push_back(std::move(handle));
}

namespace {

// Options every request shares: URL, identity, TLS, protocol limits.
void common_options(CURL* curl, const HttpSettings& s, const std::string& url, HeaderList& headers,
                    char* error_buffer) {
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_USERAGENT, s.user_agent.c_str());
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  // Never follow redirects: the token must not travel to another host.
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(s.connect_timeout.count()));
  curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);
  if (!s.token.empty()) headers.add("Authorization: Bearer " + s.token);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.list);
}

size_t append_body(char* data, size_t size, size_t count, void* user) {
  auto* body = static_cast<std::string*>(user);
  const size_t n = size * count;
  if (body->size() < HttpClient::kMaxBodyBytes)
    body->append(data, std::min(n, HttpClient::kMaxBodyBytes - body->size()));
  return n;
}

}  // namespace

HttpResponse HttpClient::get(std::string_view path) {
  return perform("GET", path, {}, settings_.request_timeout);
}

HttpResponse HttpClient::post(std::string_view path, std::string_view form_body,
                              std::optional<Millis> timeout) {
  return perform("POST", path, form_body, timeout.value_or(settings_.request_timeout));
}

HttpResponse HttpClient::perform(std::string_view method, std::string_view path,
                                 std::string_view body, Millis timeout) {
  auto handle = acquire();
  CURL* curl = handle->curl;
  const std::string url = settings_.base_url + std::string(path);
  const std::string post_body(body);
  HeaderList headers;
  char error_buffer[CURL_ERROR_SIZE] = {};
  headers.add("Accept: application/json");
  if (method == "POST") headers.add("Content-Type: application/x-www-form-urlencoded");
  common_options(curl, settings_, url, headers, error_buffer);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, long(timeout.count()));
  if (method == "POST") {
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, post_body.c_str());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, long(post_body.size()));
  } else {
    curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
  }
  HttpResponse response;
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);

  const auto start = zh::steady_clock().now();
  const CURLcode code = curl_easy_perform(curl);
  response.elapsed = std::chrono::duration_cast<Millis>(zh::steady_clock().now() - start);
  if (code == CURLE_OK) {
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    response.status = int(status);
    response.retry_after_s = retry_after(curl);
    release(std::move(handle));
  } else {
    response.status = 0;
    response.error = network_error(code, error_buffer);
    response.body.clear();
    // A failed handle may hold a broken connection; let it go.
  }
  return response;
}

namespace {

struct StreamState {
  CURL* curl = nullptr;
  const std::function<bool(std::string_view)>* on_bytes = nullptr;
  const std::function<void()>* on_open = nullptr;
  Clock* clock = nullptr;
  const CancelToken* cancel = nullptr;
  Millis idle_timeout{0};
  TimePoint last_byte;
  long status = -1;
  bool idle = false;
  bool cancelled = false;
  bool stopped = false;
  StreamResult* result = nullptr;
};

size_t stream_write(char* data, size_t size, size_t count, void* user) {
  auto* st = static_cast<StreamState*>(user);
  const size_t n = size * count;
  st->last_byte = st->clock->now();
  if (st->status < 0) curl_easy_getinfo(st->curl, CURLINFO_RESPONSE_CODE, &st->status);
  if (st->status != 200) {
    if (st->result->body.size() < 64 * 1024) st->result->body.append(data, n);
    return n;
  }
  st->result->bytes += n;
  if (!(*st->on_bytes)(std::string_view(data, n))) {
    st->stopped = true;
    return 0;  // makes libcurl abort the transfer
  }
  return n;
}

// Header lines arrive one by one; the empty line ends them, and then the status is final
// (an interim "100 Continue" block ends with an empty line too, hence the 200 check).
size_t stream_header(char* data, size_t size, size_t count, void* user) {
  auto* st = static_cast<StreamState*>(user);
  const size_t n = size * count;
  const std::string_view line(data, n);
  if (line == "\r\n" || line == "\n") {
    long status = 0;
    curl_easy_getinfo(st->curl, CURLINFO_RESPONSE_CODE, &status);
    if (status == 200 && *st->on_open) (*st->on_open)();
  }
  return n;
}

// libcurl calls this about once a second even while no data flows: the watchdog's tick.
int stream_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* st = static_cast<StreamState*>(user);
  if (st->cancel->cancelled()) {
    st->cancelled = true;
    return 1;
  }
  if (st->clock->now() - st->last_byte > st->idle_timeout) {
    st->idle = true;
    return 1;
  }
  return 0;
}

}  // namespace

StreamResult HttpClient::stream(std::string_view path,
                                const std::function<bool(std::string_view)>& on_bytes, Clock& clock,
                                Millis idle_timeout, const CancelToken& cancel,
                                const std::function<void()>& on_open) {
  StreamResult result;
  if (cancel.cancelled()) {
    result.end = StreamEnd::kCancelled;
    return result;
  }
  Handle handle;  // streams are long-lived: a fresh connection, not one from the pool
  if (handle.curl == nullptr) throw std::runtime_error("libcurl could not create a handle");
  const std::string url = settings_.base_url + std::string(path);
  HeaderList headers;
  char error_buffer[CURL_ERROR_SIZE] = {};
  headers.add("Accept: application/x-ndjson");
  common_options(handle.curl, settings_, url, headers, error_buffer);
  curl_easy_setopt(handle.curl, CURLOPT_HTTPGET, 1L);

  StreamState st;
  st.curl = handle.curl;
  st.on_bytes = &on_bytes;
  st.on_open = &on_open;
  st.clock = &clock;
  st.cancel = &cancel;
  st.idle_timeout = idle_timeout;
  st.last_byte = clock.now();
  st.result = &result;
  curl_easy_setopt(handle.curl, CURLOPT_WRITEFUNCTION, stream_write);
  curl_easy_setopt(handle.curl, CURLOPT_WRITEDATA, &st);
  curl_easy_setopt(handle.curl, CURLOPT_HEADERFUNCTION, stream_header);
  curl_easy_setopt(handle.curl, CURLOPT_HEADERDATA, &st);
  curl_easy_setopt(handle.curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(handle.curl, CURLOPT_XFERINFOFUNCTION, stream_progress);
  curl_easy_setopt(handle.curl, CURLOPT_XFERINFODATA, &st);

  const CURLcode code = curl_easy_perform(handle.curl);
  long status = 0;
  curl_easy_getinfo(handle.curl, CURLINFO_RESPONSE_CODE, &status);
  result.status = int(status);
  if (st.cancelled) {
    result.end = StreamEnd::kCancelled;
  } else if (st.stopped) {
    result.end = StreamEnd::kStoppedByHandler;
  } else if (st.idle) {
    result.end = StreamEnd::kIdleTimeout;
  } else if (code != CURLE_OK) {
    result.end = StreamEnd::kNetworkError;
    result.error = network_error(code, error_buffer);
  } else if (status != 200) {
    result.end = StreamEnd::kHttpError;
    result.retry_after_s = retry_after(handle.curl);
  } else {
    result.end = StreamEnd::kServerClosed;
  }
  return result;
}

std::string HttpClient::url_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '_' || c == '.' || c == '~') {
      out += char(c);
    } else if (c == ' ') {
      out += '+';
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string describe_url(std::string_view url) {
  std::string out(url);
  const auto scheme = out.find("://");
  const auto at = out.find('@');
  if (scheme != std::string::npos && at != std::string::npos && at > scheme)
    out.replace(scheme + 3, at - scheme - 3, "***");
  return redact(out);
}

}  // namespace zh::bot
