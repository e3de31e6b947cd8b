#pragma once
// The bot daemon: checks the account, resumes ongoing games, keeps the one event stream open
// and wires what the events are for: the challenge desk (challenges in and out), the session
// table (one GameSession per game) and the bot-game ledger (what survives a restart). It serves
// health and metrics and drains gracefully on shutdown.

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "bot/config/load_config.h"
#include "bot/daemon/systemd_notify.h"
#include "bot/desk/challenge_desk.h"
#include "bot/game/game_session.h"
#include "bot/ledger/game_ledger.h"
#include "bot/ledger/session_table.h"
#include "bot/lichess/lichess_client.h"
#include "bot/metrics/metrics.h"
#include "bot/state/state_file.h"
#include "bot/status/status_board.h"

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
  // What /status.json and /status show (the program adds the evaluator's figures).
  StatusBoard& status() { return status_; }
  // The challenge desk, e.g. to decline new challenges while a health check fails:
  //   daemon.desk().decline_later_while("GPU unhealthy", [&] { return !gpu.healthy(); });
  ChallengeDesk& desk() { return *desk_; }
  // Reports the shared evaluator's batch fill for /metrics (optional).
  void set_batch_fill_source(std::function<double()> source) { batch_fill_ = std::move(source); }

 private:
  int check_account();  // an exit code: kExitOk when the account may play
  void resume_ongoing_games();
  // Which of these opponents (ids) lichess titles BOT, for games the desk did not start (from
  // before a restart). When lichess cannot be asked, every one counts as a bot: the slots
  // reserved for humans then stay free, and the daily bot-game count is not touched.
  std::vector<std::string> bots_among(const std::vector<std::string>& opponent_ids);
  void event_loop();
  void handle_line(std::string_view line);
  void on_game_start(const GameInfo& game);
  void on_game_finish(const GameInfo& game);
  void start_session(const std::string& game_id, const std::string& opponent_id, bool bot);
  void reap_sessions();
  void serve_status_pages();

  const BotConfig& config_;
  Clock& clock_;
  EngineFactory make_engine_;
  Metrics metrics_;
  StatusBoard status_;      // before everything that publishes to it
  CancelToken cancel_;      // everything network-facing stops on it
  CancelToken drain_done_;  // wakes the main loop
  std::unique_ptr<HttpClient> http_;
  std::unique_ptr<LichessClient> client_;
  std::unique_ptr<PonderCoordinator> ponder_;
  std::unique_ptr<HealthServer> health_;
  SystemdNotifier systemd_;
  std::atomic<bool> ready_sent_{false};
  Account account_;  // written before the event thread starts, read-only after

  GameLedger ledger_;
  SessionTable sessions_;
  std::unique_ptr<ChallengeDesk> desk_;  // after the client, ledger and sessions it uses
  std::atomic<bool> draining_{false};
  std::atomic<bool> immediate_{false};
  std::atomic<bool> fatal_{false};
  std::atomic<int> fatal_code_{1};
  std::function<double()> batch_fill_;
};

}  // namespace zh::bot
