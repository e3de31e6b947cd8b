#pragma once
// The bot daemon: checks the account, resumes ongoing games, keeps the one event stream open,
// answers challenges through the policy, runs a GameSession per game, serves health and
// metrics, and drains gracefully on shutdown.

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "bot/config/load_config.h"
#include "bot/daemon/seen_ids.h"
#include "bot/daemon/systemd_notify.h"
#include "bot/game/game_session.h"
#include "bot/lichess/lichess_client.h"
#include "bot/metrics/metrics.h"
#include "bot/state/state_file.h"

namespace zh::bot {

class Daemon {
 public:
  using EngineFactory = std::function<std::unique_ptr<MoveEngine>()>;

  Daemon(const BotConfig& config, std::string token, EngineFactory make_engine,
         Clock& clock = steady_clock());
  ~Daemon();

  // Runs until shutdown; returns the process exit code (bot/daemon/exit_codes.h: 0 after a
  // clean drain).
  int run();
  // First call: stop accepting, let games finish for shutdown_grace_s, then exit.
  void request_shutdown();
  // Leave at once (games stay on lichess and resume on the next start).
  void request_immediate_exit();

  Metrics& metrics() { return metrics_; }
  // Reports the shared evaluator's batch fill for /metrics (optional).
  void set_batch_fill_source(std::function<double()> source) { batch_fill_ = std::move(source); }

 private:
  int check_account();  // an exit code: kExitOk when the account may play
  void resume_ongoing_games();
  void event_loop();
  void handle_line(std::string_view line);
  void on_game_start(const GameInfo& game);
  void on_game_finish(const GameInfo& game);
  void on_challenge(const Challenge& challenge);
  void start_session(const std::string& game_id, const std::string& opponent_id);
  void reap_sessions();
  DaemonLoad load_for(const Challenge& challenge);
  int running_games();
  // The bot-game times of the last 24 h from the state file, and back into it.
  void restore_state();
  void save_state();

  const BotConfig& config_;
  Clock& clock_;
  EngineFactory make_engine_;
  Metrics metrics_;
  CancelToken cancel_;      // everything network-facing stops on it
  CancelToken drain_done_;  // wakes the main loop
  std::unique_ptr<HttpClient> http_;
  std::unique_ptr<LichessClient> client_;
  std::unique_ptr<PonderCoordinator> ponder_;
  std::unique_ptr<HealthServer> health_;
  StateFile state_file_;
  SystemdNotifier systemd_;
  std::atomic<bool> ready_sent_{false};
  Account account_;

  std::mutex mutex_;  // sessions_, pending_, bot game times
  struct Running {
    std::unique_ptr<GameSession> session;
    std::string opponent_id;
  };
  std::map<std::string, Running> sessions_;
  struct Pending {
    TimePoint accepted_at;
    std::string challenger_id;
    bool bot = false;
  };
  std::map<std::string, Pending> pending_;  // accepted challenges whose game has not started
  std::deque<TimePoint> bot_game_starts_;   // for the 24 h bot-vs-bot cap
  SeenIds seen_challenges_;
  SeenIds finished_games_;
  std::atomic<bool> draining_{false};
  std::atomic<bool> immediate_{false};
  std::atomic<bool> fatal_{false};
  std::atomic<int> fatal_code_{1};
  std::function<double()> batch_fill_;
};

}  // namespace zh::bot
