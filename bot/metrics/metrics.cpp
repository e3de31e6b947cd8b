#include "bot/metrics/metrics.h"

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace zh::bot {

namespace {

// Label values come from our own code, but escape anyway as the format requires.
std::string label(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

void header(std::ostringstream& os, const char* name, const char* type, const char* help) {
  os << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n";
}

// One more of `key` in a counter by label.
void count(std::map<std::string, std::uint64_t, std::less<>>& counter, std::string_view key) {
  const auto it = counter.find(key);
  if (it == counter.end())
    counter.emplace(std::string(key), 1);
  else
    ++it->second;
}

}  // namespace

void Metrics::set_event_stream_connected(bool connected) {
  std::lock_guard lock(mutex_);
  connected_ = connected;
}

bool Metrics::event_stream_connected() const {
  std::lock_guard lock(mutex_);
  return connected_;
}

void Metrics::set_games_active(int games) {
  std::lock_guard lock(mutex_);
  games_active_ = games;
}

void Metrics::add_game_result(std::string_view result) {
  std::lock_guard lock(mutex_);
  count(results_, result);
}

void Metrics::add_move() {
  std::lock_guard lock(mutex_);
  ++moves_;
}

std::string Metrics::summary() const {
  std::lock_guard lock(mutex_);
  return std::to_string(games_active_) + (games_active_ == 1 ? " game, " : " games, ") +
         std::to_string(std::llround(nps_)) + " nodes/s";
}

void Metrics::set_nodes_per_second(double nps) {
  std::lock_guard lock(mutex_);
  nps_ = nps;
}

double Metrics::nodes_per_second() const {
  std::lock_guard lock(mutex_);
  return nps_;
}

void Metrics::add_stream_reconnect(std::string_view stream) {
  std::lock_guard lock(mutex_);
  count(reconnects_, stream);
}

void Metrics::add_http_response(std::string_view endpoint, int status) {
  std::lock_guard lock(mutex_);
  ++http_requests_;
  if (status == 0 || status >= 400) ++http_errors_[{std::string(endpoint), status}];
}

void Metrics::add_challenge(std::string_view outcome) {
  std::lock_guard lock(mutex_);
  count(challenges_, outcome);
}

void Metrics::add_decline(std::string_view reason) {
  std::lock_guard lock(mutex_);
  count(declines_, reason);
}

void Metrics::set_challenge_queue(int waiting) {
  std::lock_guard lock(mutex_);
  challenge_queue_ = waiting;
}

void Metrics::add_matchmaking(std::string_view step) {
  std::lock_guard lock(mutex_);
  count(matchmaking_, step);
}

void Metrics::add_seek_challenge(std::string_view clock, bool rated) {
  std::lock_guard lock(mutex_);
  ++seek_challenges_[{std::string(clock), rated ? "rated" : "casual"}];
}

void Metrics::set_bot_games_24h(int games) {
  std::lock_guard lock(mutex_);
  bot_games_24h_ = games;
}

void Metrics::set_inference_batch_fill(double fill) {
  std::lock_guard lock(mutex_);
  batch_fill_ = fill;
}

void Metrics::set_evaluator_source(std::function<EvaluatorFigures()> source) {
  std::lock_guard lock(mutex_);
  evaluator_source_ = std::move(source);
}

bool Metrics::evaluator_healthy() const {
  std::function<EvaluatorFigures()> source;
  {
    std::lock_guard lock(mutex_);
    source = evaluator_source_;
  }
  return !source || source().healthy;
}

void Metrics::observe_move_overhead_ms(double ms) {
  std::lock_guard lock(mutex_);
  ++overhead_count_;
  if (overhead_recent_.size() < kOverheadWindow)
    overhead_recent_.push_back(ms);
  else
    overhead_recent_[overhead_next_++ % kOverheadWindow] = ms;
  overhead_sum_ms_ += ms;
  overhead_max_ms_ = std::max(overhead_max_ms_, ms);
}

void Metrics::set_explorer_source(std::function<ExplorerFigures()> source) {
  std::lock_guard lock(mutex_);
  explorer_source_ = std::move(source);
}

std::string Metrics::render() const {
  std::function<EvaluatorFigures()> source;
  std::function<ExplorerFigures()> explorer_source;
  {
    std::lock_guard lock(mutex_);
    source = evaluator_source_;
    explorer_source = explorer_source_;
  }
  const EvaluatorFigures ev = source ? source() : EvaluatorFigures{};  // outside our lock
  // A plain value and a flag: GCC 12 takes an optional's payload here for uninitialised.
  const bool explorer_on = bool(explorer_source);
  const ExplorerFigures explorer = explorer_on ? explorer_source() : ExplorerFigures{};
  std::lock_guard lock(mutex_);
  std::ostringstream os;
  if (explorer_on) {
    header(os, "zhbot_explorer_requests_total", "counter",
           "Opening explorer queries by outcome (failed: refused, an HTTP error, no answer).");
    os << "zhbot_explorer_requests_total{outcome=\"answered\"} " << explorer.answered << "\n";
    os << "zhbot_explorer_requests_total{outcome=\"failed\"} " << explorer.failed << "\n";
    header(os, "zhbot_explorer_failing", "gauge",
           "1 while the opening explorer's last query failed (the search plays instead).");
    os << "zhbot_explorer_failing " << (explorer.failing ? 1 : 0) << "\n";
  }
  header(os, "zhbot_evaluator_healthy", "gauge",
         "1 while the evaluator's device works (0: games run on the fallback evaluator).");
  os << "zhbot_evaluator_healthy " << (ev.healthy ? 1 : 0) << "\n";
  header(os, "zhbot_inference_failures_total", "counter", "Device batches that failed.");
  os << "zhbot_inference_failures_total " << ev.failures << "\n";
  header(os, "zhbot_inference_fallback_positions_total", "counter",
         "Positions the fallback evaluator answered while the device was down.");
  os << "zhbot_inference_fallback_positions_total " << ev.fallback_positions << "\n";
  header(os, "zhbot_inference_batches_total", "counter", "Batches the inference service ran.");
  os << "zhbot_inference_batches_total " << ev.batches << "\n";
  header(os, "zhbot_inference_positions_total", "counter",
         "Positions the inference service evaluated.");
  os << "zhbot_inference_positions_total " << ev.positions << "\n";
  header(os, "zhbot_inference_queue_wait_us", "gauge",
         "Mean wait of a position from submission to its batch's start (microseconds).");
  os << "zhbot_inference_queue_wait_us " << ev.queue_wait_us << "\n";
  header(os, "zhbot_inference_forward_us", "gauge",
         "Mean time of one batch in the backend (microseconds).");
  os << "zhbot_inference_forward_us " << ev.forward_us << "\n";
  header(os, "zhbot_event_stream_connected", "gauge", "1 while the lichess event stream is open.");
  os << "zhbot_event_stream_connected " << (connected_ ? 1 : 0) << "\n";
  header(os, "zhbot_games_active", "gauge", "Games being played now.");
  os << "zhbot_games_active " << games_active_ << "\n";
  header(os, "zhbot_games_total", "counter", "Finished games by result.");
  for (const char* r : {"win", "loss", "draw", "aborted"}) {
    auto it = results_.find(r);
    os << "zhbot_games_total{result=\"" << r << "\"} " << (it == results_.end() ? 0 : it->second)
       << "\n";
  }
  header(os, "zhbot_moves_total", "counter", "Moves sent to lichess.");
  os << "zhbot_moves_total " << moves_ << "\n";
  header(os, "zhbot_nodes_per_second", "gauge", "Search speed of the last move.");
  os << "zhbot_nodes_per_second " << nps_ << "\n";
  header(os, "zhbot_stream_reconnects_total", "counter", "Stream reconnects by stream kind.");
  for (const auto& [stream, n] : reconnects_)
    os << "zhbot_stream_reconnects_total{stream=\"" << label(stream) << "\"} " << n << "\n";
  header(os, "zhbot_http_requests_total", "counter", "HTTP requests to lichess.");
  os << "zhbot_http_requests_total " << http_requests_ << "\n";
  header(os, "zhbot_http_errors_total", "counter",
         "HTTP errors by endpoint and status code (0: network error).");
  for (const auto& [key, n] : http_errors_)
    os << "zhbot_http_errors_total{endpoint=\"" << label(key.first) << "\",code=\"" << key.second
       << "\"} " << n << "\n";
  header(os, "zhbot_challenges_total", "counter", "Incoming challenges by outcome.");
  for (const auto& [outcome, n] : challenges_)
    os << "zhbot_challenges_total{outcome=\"" << label(outcome) << "\"} " << n << "\n";
  header(os, "zhbot_challenges_declined_total", "counter",
         "Incoming challenges declined, by the reason lichess shows the challenger.");
  for (const auto& [reason, n] : declines_)
    os << "zhbot_challenges_declined_total{reason=\"" << label(reason) << "\"} " << n << "\n";
  header(os, "zhbot_challenge_queue", "gauge", "Acceptable challenges waiting for a free slot.");
  os << "zhbot_challenge_queue " << challenge_queue_ << "\n";
  header(os, "zhbot_matchmaking_total", "counter", "Matchmaking steps by kind.");
  for (const auto& [step, n] : matchmaking_)
    os << "zhbot_matchmaking_total{step=\"" << label(step) << "\"} " << n << "\n";
  header(os, "zhbot_matchmaking_challenges_total", "counter",
         "Our matchmaking challenges sent, by clock and mode.");
  for (const auto& [key, n] : seek_challenges_)
    os << "zhbot_matchmaking_challenges_total{clock=\"" << label(key.first) << "\",mode=\""
       << key.second << "\"} " << n << "\n";
  header(os, "zhbot_bot_games_24h", "gauge",
         "Bot-vs-bot games started in the last 24 h (lichess allows 100).");
  os << "zhbot_bot_games_24h " << bot_games_24h_ << "\n";
  header(os, "zhbot_inference_batch_fill", "gauge", "Mean inference batch size over its maximum.");
  os << "zhbot_inference_batch_fill " << batch_fill_ << "\n";
  header(os, "zhbot_move_overhead_ms", "summary",
         "Opponent move received to our move sent, minus search time.");
  if (!overhead_recent_.empty()) {
    std::vector<double> sorted = overhead_recent_;
    std::sort(sorted.begin(), sorted.end());
    for (double q : {0.5, 0.9, 0.99}) {
      const auto index = std::size_t(std::lround(q * double(sorted.size() - 1)));
      os << "zhbot_move_overhead_ms{quantile=\"" << q << "\"} " << sorted[index] << "\n";
    }
  }
  os << "zhbot_move_overhead_ms_sum " << overhead_sum_ms_ << "\n";
  os << "zhbot_move_overhead_ms_count " << overhead_count_ << "\n";
  header(os, "zhbot_move_overhead_ms_max", "gauge", "Largest move overhead seen.");
  os << "zhbot_move_overhead_ms_max " << overhead_max_ms_ << "\n";
  return os.str();
}

HealthServer::HealthServer(Metrics& metrics, int port)
    : metrics_(metrics), port_(port), server_(std::make_unique<httplib::Server>()) {
  // SO_REUSEADDR only: httplib's default adds SO_REUSEPORT, which would let a second daemon
  // share the port silently instead of reporting it busy.
  server_->set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  server_->Get("/healthz", [this](const httplib::Request&, httplib::Response& res) {
    const bool connected = metrics_.event_stream_connected();
    const bool evaluator = metrics_.evaluator_healthy();
    res.status = connected && evaluator ? 200 : 503;
    res.set_content(!connected   ? "event stream disconnected\n"
                    : !evaluator ? "evaluator device failing (games on the fallback)\n"
                                 : "ok\n",
                    "text/plain");
  });
  server_->Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    res.set_content(metrics_.render(), "text/plain; version=0.0.4");
  });
}

HealthServer::~HealthServer() { stop(); }

void HealthServer::add_page(const std::string& path, const std::string& content_type,
                            std::function<std::string()> body) {
  std::string pattern;  // httplib matches a regular expression: the path's dots are literal
  for (char c : path) pattern += c == '.' ? std::string("\\.") : std::string(1, c);
  server_->Get(pattern, [content_type, body = std::move(body)](const httplib::Request&,
                                                               httplib::Response& res) {
    res.set_header("Cache-Control", "no-store");
    res.set_content(body(), content_type);
  });
}

void HealthServer::start() {
  // Loopback only: metrics are for the operator's scraper on this machine.
  if (port_ == 0) {
    port_ = server_->bind_to_any_port("127.0.0.1");
    if (port_ <= 0) throw std::runtime_error("metrics: cannot bind any port on 127.0.0.1");
  } else if (!server_->bind_to_port("127.0.0.1", port_)) {
    throw std::runtime_error("metrics: cannot listen on 127.0.0.1:" + std::to_string(port_) +
                             " (in use?); change operations.metrics_port or set it to 0");
  }
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  while (!server_->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

void HealthServer::stop() {
  if (thread_.joinable()) {
    server_->stop();
    thread_.join();
  }
}

}  // namespace zh::bot
