#pragma once
// The engine object that UCI and the lichess bot both drive: options, the game, the search
// tree (reused between moves), time management and pondering.
//
//   new_game(); set_game(game) or set_position(fen, moves); go(limits, listener)  -- returns
//   at once; stop(); ponderhit(); wait()
//
// One long-lived search thread runs every go(): it sleeps on a condition variable until a
// search is asked for, and while one runs it wakes only for stop/ponderhit, the search ending
// on its own, the once-a-second info, and the times its StopRules (engine/time) name. It
// reads and waits for time only through the Clock it is given (tests pass a fake one).
//
// Thread-safety: every method may be called from any thread. stop() and ponderhit() never
// block; a go() always ends with exactly one listener->on_bestmove(), also after stop(), a
// limit, an evaluator error or a new set_position()/go() that interrupts it. Listener
// callbacks run on the engine's search thread; they may call stop() and ponderhit() but must
// not call the other methods (post to your own thread instead).

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/chess/game.h"
#include "engine/evaluator_loader.h"
#include "engine/nn/evaluator.h"
#include "engine/options.h"
#include "engine/search/search.h"
#include "engine/search_report.h"
#include "engine/time/search_limits.h"
#include "engine/time/stop_rules.h"
#include "engine/util/clock.h"

namespace zh {

class SearchListener {
 public:
  virtual ~SearchListener() = default;
  virtual void on_info(const SearchInfo& info) = 0;
  virtual void on_bestmove(const BestMove& best) = 0;
  // Free-text notes (tree reuse, stop reason, errors); UCI prints them as `info string`.
  virtual void on_message(const std::string& /*text*/) {}
};

class Engine {
 public:
  // Builds the evaluator from the options; the default is load_evaluator() in fallback mode
  // (a model that cannot be loaded gives the material evaluator and a warning).
  using EvaluatorLoader = std::function<LoadedEvaluator(const Options&)>;

  Engine();
  explicit Engine(Clock& clock);  // the default evaluator, time from `clock`
  explicit Engine(EvaluatorLoader loader, Clock& clock = steady_clock());
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Declares every engine option (search, time, evaluator) on `options`.
  static void declare_options(Options& options);

  // Sets an option by name (throws OptionError); takes effect at the next go().
  void set_option(std::string_view name, std::string_view value);
  Options options() const;  // a copy

  // Loads the evaluator now if the options changed (throws with a message on failure).
  // Returns the warnings of that load (a fallback), which the next go() also reports through
  // on_message unless they were returned here.
  std::vector<std::string> ensure_ready();

  void new_game();
  // start_fen empty = the start position; moves in UCI. Keeps the matching subtree. Stops a
  // running search first. Throws FenError / MoveError and leaves the position unchanged.
  void set_position(std::string_view start_fen, const std::vector<std::string>& moves);
  // The bot's way: the game as its session holds it (no text, no replay from the start).
  void set_game(const Game& game);
  Game game() const;

  void go(const SearchLimits& limits, std::shared_ptr<SearchListener> listener);
  // Bot-style pondering: search the current position (after our move) until the next
  // set_position() (which keeps the subtree of the move the opponent played) or stop().
  void ponder(std::shared_ptr<SearchListener> listener);
  void stop();
  void ponderhit();
  void wait();
  bool searching() const { return searching_.load(); }
  // The final state of the last finished search (root moves with visits, Q, PV, counters).
  SearchSnapshot last_result() const;

 private:
  struct Run;
  void stop_run_locked();  // run_mutex_ held
  void stop_and_wait_locked();
  void thread_loop();
  void search(Run& run);
  int choose_played_move(const Run& run, const SearchSnapshot& snap, int move_number);
  std::shared_ptr<Evaluator> evaluator_locked();

  mutable std::mutex mutex_;  // API calls; never held by the search thread
  EvaluatorLoader loader_;
  Clock& clock_;
  Options options_;
  std::shared_ptr<Evaluator> evaluator_;
  std::string evaluator_signature_;
  std::vector<std::string> evaluator_warnings_;  // not yet reported
  std::unique_ptr<Search> search_;
  Game game_;
  StopRules stop_rules_;  // used by the search thread while a search runs
  std::uint64_t seeded_with_ = ~std::uint64_t(0);

  // Shared with the search thread, guarded by run_mutex_ and signalled through wake_.
  mutable std::mutex run_mutex_;
  std::condition_variable wake_;
  std::shared_ptr<Run> run_;  // the go() asked for or running; null when idle
  bool run_started_ = false;  // the thread took run_
  bool quit_ = false;
  SearchSnapshot last_snapshot_;
  std::atomic<bool> searching_{false};
  std::thread thread_;  // last: starts once everything above exists
};

}  // namespace zh
