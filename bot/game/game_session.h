#pragma once
// One game on its own threads: a stream thread keeps the game stream open (reopening it after
// a short backoff when it drops: 250 ms, doubling up to 5 s) and a worker thread runs
// SessionCore on everything that arrives: stream lines, engine results, the event stream's
// gameFinish, and timer ticks.

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "bot/game/session_core.h"
#include "bot/lichess/http_client.h"
#include "bot/lichess/stream_runner.h"

namespace zh::bot {

class GameSession {
 public:
  struct Deps {
    HttpClient* http = nullptr;
    LichessClient* client = nullptr;
    Clock* clock = nullptr;
    RandomSource random;
    Metrics* metrics = nullptr;
    PonderCoordinator* ponder = nullptr;
    const BotConfig* config = nullptr;
    std::string my_id;
    std::string my_name;
    std::function<QueueView(const std::string& user)> queue;  // the desk's queue, for !queue
    StatusBoard* status = nullptr;                            // the status page's (optional)
    std::string game_url;
  };

  GameSession(std::string game_id, Deps deps, std::unique_ptr<MoveEngine> engine);
  ~GameSession();  // shuts down and joins
  GameSession(const GameSession&) = delete;
  GameSession& operator=(const GameSession&) = delete;

  void start();
  void game_finished(const GameInfo& info);
  // Leave without a result (shutdown): lichess keeps the game and a restart resumes it.
  void shutdown();
  bool done() const { return done_.load(); }
  const std::string& game_id() const { return game_id_; }

 private:
  void post(std::function<void()> task);
  void worker_loop();
  void stream_loop();

  std::string game_id_;
  Deps deps_;
  std::unique_ptr<MoveEngine> engine_;
  std::shared_ptr<spdlog::logger> log_;
  std::unique_ptr<SessionCore> core_;
  CancelToken stream_cancel_;
  std::atomic<bool> done_{false};
  std::atomic<bool> stop_requested_{false};

  std::mutex mutex_;  // tasks_; core_ itself is only ever run by the worker thread
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;

  std::thread worker_;
  std::thread stream_;
};

}  // namespace zh::bot
