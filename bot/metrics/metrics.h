#pragma once
// Daemon counters and gauges, rendered in the Prometheus text format for /metrics; /healthz
// reports whether the event stream (the bot's lifeline) is connected and the evaluator's device
// works. Thread-safe.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace httplib {
class Server;
}

namespace zh::bot {

// The evaluator's state as /metrics and /healthz show it (filled by the program from the
// engine's InferenceService and FailoverEvaluator; the metrics know nothing of the engine).
struct EvaluatorFigures {
  bool healthy = true;                   // false while a failed device is down
  std::uint64_t failures = 0;            // device batches that failed
  std::uint64_t fallback_positions = 0;  // positions evaluated by the fallback
  std::uint64_t batches = 0, positions = 0;
  double queue_wait_us = 0;  // mean per position
  double forward_us = 0;     // mean per batch
};

// The opening explorer's queries as /metrics shows them (filled by the program from the book's
// ExplorerWatch; absent while the explorer is off).
struct ExplorerFigures {
  std::uint64_t answered = 0, failed = 0;
  bool failing = false;  // the last query failed
};

class Metrics {
 public:
  void set_event_stream_connected(bool connected);
  bool event_stream_connected() const;
  void set_games_active(int games);
  void add_game_result(std::string_view result);  // win | loss | draw | aborted
  void add_move();
  void set_nodes_per_second(double nps);
  double nodes_per_second() const;
  void add_stream_reconnect(std::string_view stream);  // event | game
  // Every HTTP answer; codes >= 400 and network errors (0) are counted as errors.
  void add_http_response(std::string_view endpoint, int status);
  void set_inference_batch_fill(double fill);  // mean batch size / max batch size
  // Incoming challenges by what became of them: accepted, declined, queued, canceled.
  void add_challenge(std::string_view outcome);
  // Incoming challenges declined, by the lichess reason key (tooFast, casual, later, ...).
  void add_decline(std::string_view reason);
  void set_challenge_queue(int waiting);
  // Matchmaking steps: sought, challenged, accepted, declined, canceled, no_candidate,
  // rate_limited, failed.
  void add_matchmaking(std::string_view step);
  // Our matchmaking challenges sent, by clock ("180+2") and mode.
  void add_seek_challenge(std::string_view clock, bool rated);
  void set_bot_games_24h(int games);
  // Where /metrics and /healthz read the evaluator's figures (called on their threads, outside
  // the metrics lock). Without one the evaluator counts as healthy.
  void set_evaluator_source(std::function<EvaluatorFigures()> source);
  bool evaluator_healthy() const;
  // Where /metrics reads the opening explorer's figures (optional, called outside the lock).
  void set_explorer_source(std::function<ExplorerFigures()> source);
  // Our own overhead per move: opponent's move line received -> our POST sent, minus search.
  void observe_move_overhead_ms(double ms);

  std::string render() const;
  // A one-line summary for the service manager's status ("2 games, 41000 nodes/s").
  std::string summary() const;

  static constexpr std::size_t kOverheadWindow = 1000;

 private:
  mutable std::mutex mutex_;
  bool connected_ = false;
  int games_active_ = 0;
  std::map<std::string, std::uint64_t, std::less<>> results_;
  std::uint64_t moves_ = 0;
  double nps_ = 0;
  std::map<std::string, std::uint64_t, std::less<>> reconnects_;
  std::map<std::pair<std::string, int>, std::uint64_t> http_errors_;
  std::uint64_t http_requests_ = 0;
  double batch_fill_ = 0;
  std::map<std::string, std::uint64_t, std::less<>> challenges_;
  std::map<std::string, std::uint64_t, std::less<>> declines_;
  int challenge_queue_ = 0;
  std::map<std::string, std::uint64_t, std::less<>> matchmaking_;
  std::map<std::pair<std::string, std::string>, std::uint64_t> seek_challenges_;
  int bot_games_24h_ = 0;
  std::function<EvaluatorFigures()> evaluator_source_;
  std::function<ExplorerFigures()> explorer_source_;
  std::vector<double> overhead_recent_;  // the last kOverheadWindow values, for quantiles
  std::size_t overhead_next_ = 0;
  std::uint64_t overhead_count_ = 0;
  double overhead_sum_ms_ = 0;
  double overhead_max_ms_ = 0;
};

// GET /healthz (200 while the event stream is connected and the evaluator healthy, else 503),
// GET /metrics and the pages added with add_page, on 127.0.0.1 only; anything else is 404.
// Port 0 picks a free port (tests).
class HealthServer {
 public:
  HealthServer(Metrics& metrics, int port);
  ~HealthServer();
  HealthServer(const HealthServer&) = delete;
  HealthServer& operator=(const HealthServer&) = delete;

  // Serves GET `path` with `body()` (called on the server's threads) as `content_type`. Before
  // start().
  void add_page(const std::string& path, const std::string& content_type,
                std::function<std::string()> body);

  // Throws std::runtime_error when the port cannot be bound.
  void start();
  void stop();
  int port() const { return port_; }

 private:
  Metrics& metrics_;
  int port_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
};

}  // namespace zh::bot
