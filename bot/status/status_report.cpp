#include "bot/status/status_report.h"

#include <curl/curl.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>

namespace zh::bot {

namespace {

using nlohmann::json;

std::size_t append_body(char* data, std::size_t size, std::size_t count, void* out) {
  auto* body = static_cast<std::string*>(out);
  constexpr std::size_t kMaxBody = 8 << 20;  // a status is a few KiB; refuse a runaway answer
  if (body->size() + size * count > kMaxBody) return 0;
  body->append(data, size * count);
  return size * count;
}

std::string text(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

template <typename T>
T number(const json& j, const char* key, T fallback = 0) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<T>() : fallback;
}

bool flag(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

const json& child(const json& j, const char* key) {
  static const json kEmpty = json::object();
  const auto it = j.find(key);
  return it != j.end() && (it->is_object() || it->is_array()) ? *it : kEmpty;
}

std::string player(const json& p) {
  std::string out = text(p, "title").empty() ? "" : text(p, "title") + " ";
  out += text(p, "name");
  const auto rating = p.find("rating");
  out += " (" +
         (rating != p.end() && rating->is_number() ? std::to_string(rating->get<int>()) : "?") +
         ")";
  return out;
}

std::string clock_text(std::int64_t ms) {
  const std::int64_t s = std::max<std::int64_t>(0, ms) / 1000;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld:%02lld", static_cast<long long>(s / 60),
                static_cast<long long>(s % 60));
  return buf;
}

std::string ago(std::int64_t then_ms, std::int64_t now_ms) {
  const std::int64_t s = std::max<std::int64_t>(0, now_ms - then_ms) / 1000;
  if (s < 120) return std::to_string(s) + " s ago";
  if (s < 7200) return std::to_string(s / 60) + " min ago";
  return std::to_string(s / 3600) + " h ago";
}

std::string eval_text(const json& e) {
  if (!e.is_object()) return "-";
  if (e.contains("mate") && e["mate"].is_number())
    return "#" + std::to_string(e["mate"].get<int>());
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f", number<int>(e, "cp") / 100.0);
  return buf;
}

void games_section(std::ostringstream& os, const json& games) {
  os << "games (" << games.size() << ")\n";
  for (const auto& g : games) {
    const json& clock = child(g, "clock");
    const json& board = child(g, "board");
    const bool white = text(g, "color") == "white";
    os << "  " << text(g, "id") << "  vs " << player(child(g, "opponent")) << ", "
       << text(g, "color") << ", " << text(g, "speed") << (flag(g, "rated") ? " rated" : " casual")
       << "\n    clocks: us "
       << clock_text(number<std::int64_t>(clock, white ? "white_ms" : "black_ms")) << ", them "
       << clock_text(number<std::int64_t>(clock, white ? "black_ms" : "white_ms")) << "   eval "
       << eval_text(g.contains("eval") ? g["eval"] : json()) << "   ply "
       << number<int>(board, "plies") << (flag(g, "thinking") ? ", thinking" : "") << "\n";
    std::string moves;
    for (const auto& m : child(board, "recent_moves"))
      if (m.is_string()) moves += (moves.empty() ? "" : " ") + m.get<std::string>();
    if (!moves.empty()) os << "    last moves: " << moves << "\n";
    os << "    " << text(g, "url") << "\n";
  }
}

}  // namespace

StatusFetch fetch_status(const std::string& base_url, std::chrono::milliseconds timeout) {
  StatusFetch out;
  const std::string url = base_url + "/status.json";
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) {
    out.error = "cannot start libcurl";
    return out;
  }
  std::string body;
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT_MS, long(timeout.count()));
  curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, append_body);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &body);
  const CURLcode rc = curl_easy_perform(curl.get());
  if (rc != CURLE_OK) {
    out.error = url + ": no answer (" + curl_easy_strerror(rc) +
                "); is zhbot running with this operations.metrics_port?";
    return out;
  }
  long status = 0;
  curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &status);
  if (status != 200) {
    out.outcome = kStatusBadAnswer;
    out.error = url + ": HTTP " + std::to_string(status) + " (not a zhbot status page?)";
    return out;
  }
  out.status = json::parse(body, nullptr, false);
  if (!out.status.is_object() || !out.status.contains("healthy")) {
    out.outcome = kStatusBadAnswer;
    out.error = url + ": the answer is not zhbot's status JSON";
    return out;
  }
  out.outcome = flag(out.status, "healthy") ? kStatusHealthy : kStatusUnhealthy;
  return out;
}

std::string format_status(const json& s) {
  std::ostringstream os;
  const auto now = number<std::int64_t>(s, "now_unix_ms");
  const json& c = child(s, "connection");
  const json& e = child(s, "evaluator");
  const json account = {{"name", text(c, "account")},
                        {"title", text(c, "title")},
                        {"rating", c.contains("rating") ? c["rating"] : json()}};
  os << "zhbot " << text(s, "version") << " as " << player(account) << ": "
     << (flag(s, "healthy") ? "healthy" : "UNHEALTHY") << (flag(c, "draining") ? ", draining" : "")
     << "\n";
  os << "  event stream: "
     << (flag(c, "event_stream_up")
             ? "up since " + ago(number<std::int64_t>(c, "up_since_unix_ms"), now)
             : std::string("DOWN"))
     << ", " << number<int>(c, "reconnects") << " reconnects\n";
  if (!text(c, "last_error").empty())
    os << "  last error (" << ago(number<std::int64_t>(c, "last_error_unix_ms"), now)
       << "): " << text(c, "last_error") << "\n";
  os << "  evaluator: " << text(e, "backend") << " on " << text(e, "device") << " ("
     << text(e, "precision") << "), " << (flag(e, "healthy") ? "healthy" : "FAILING") << ", "
     << std::llround(number<double>(e, "nodes_per_second")) << " nodes/s";
  if (e.contains("batch_fill") && e["batch_fill"].is_number())
    os << ", batch fill " << std::lround(100 * e["batch_fill"].get<double>()) << " %";
  os << "\n";
  games_section(os, child(s, "games"));
  const json& queue = child(s, "queue");
  os << "queue (" << queue.size() << ")\n";
  for (const auto& q : queue)
    os << "  " << player(child(q, "challenger")) << "  " << text(q, "time_control")
       << (flag(q, "rated") ? " rated" : " casual") << ", arrived "
       << ago(number<std::int64_t>(q, "arrived_unix_ms"), now) << "\n";
  const json& declines = child(s, "declines");
  if (!declines.empty()) os << "recent declines\n";
  for (const auto& d : declines)
    os << "  " << player(child(d, "challenger")) << "  " << text(d, "reason") << ": "
       << text(d, "detail") << " (" << ago(number<std::int64_t>(d, "at_unix_ms"), now) << ")\n";
  const json& m = child(s, "matchmaking");
  if (flag(m, "enabled"))
    os << "matchmaking: "
       << (text(m, "challenging").empty()
               ? "idle"
               : "challenging " + text(m, "challenging") + " " + text(m, "challenge_clock"))
       << ", " << number<int>(m, "bot_games_24h") << " bot games in 24 h\n";
  const json& finished = child(s, "finished");
  if (!finished.empty()) os << "finished\n";
  for (const auto& f : finished) {
    os << "  " << text(f, "result") << " vs " << player(child(f, "opponent"));
    if (f.contains("rating_diff") && f["rating_diff"].is_number()) {
      const int diff = f["rating_diff"].get<int>();
      os << "  " << (diff >= 0 ? "+" : "") << diff;
    }
    os << "  (" << ago(number<std::int64_t>(f, "ended_unix_ms"), now) << ")\n";
  }
  return os.str();
}

}  // namespace zh::bot
