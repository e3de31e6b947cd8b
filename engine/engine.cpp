#include "engine/engine.h"

#include <algorithm>
#include <utility>

#include "engine/chess/notation.h"
#include "engine/log.h"
#include "engine/search/formulas.h"
#include "engine/search/params.h"

namespace zh {

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t ms_since(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

LoadedEvaluator default_loader(const Options& options) {
  return load_evaluator(options, EvaluatorLoad::kFallback);
}

constexpr auto kInfoInterval = std::chrono::milliseconds(1000);

}  // namespace

// The state of one go(), shared by the API thread (stop/ponderhit) and the search thread;
// the flags are guarded by Engine::run_mutex_.
struct Engine::Run {
  SearchLimits limits;
  SearchParams params;
  std::shared_ptr<SearchListener> listener;
  Clock::time_point start;
  std::uint32_t reused = 0;
  std::vector<std::string> notes;  // reported before the search starts
  bool stop = false;
  bool ponderhit = false;
  bool search_done = false;  // the workers stopped on their own
};

void Engine::declare_options(Options& options) {
  SearchParams::declare(options);
  TimeParams::declare(options);
  declare_evaluator_options(options);
}

Engine::Engine() : Engine(default_loader) {}

Engine::Engine(EvaluatorLoader loader) : loader_(std::move(loader)), time_(TimeParams::defaults()) {
  declare_options(options_);
  search_ = std::make_unique<Search>(nullptr);
  search_->set_on_finished([this] {
    {
      std::lock_guard lock(run_mutex_);
      if (run_) run_->search_done = true;
    }
    wake_.notify_all();
  });
  thread_ = std::thread([this] { thread_loop(); });
}

Engine::~Engine() {
  {
    std::lock_guard lock(mutex_);
    stop_and_wait_locked();
  }
  {
    std::lock_guard lock(run_mutex_);
    quit_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Engine::set_option(std::string_view name, std::string_view value) {
  std::lock_guard lock(mutex_);
  options_.set(name, value);
  apply_device_defaults(options_);  // a device change moves the GPU-sized defaults
}

Options Engine::options() const {
  std::lock_guard lock(mutex_);
  return options_;
}

std::shared_ptr<Evaluator> Engine::evaluator_locked() {
  const std::string sig = evaluator_signature(options_);
  if (!evaluator_ || sig != evaluator_signature_) {
    LoadedEvaluator loaded = loader_(options_);
    if (!loaded.evaluator)
      throw std::runtime_error("no evaluator could be built for backend '" +
                               options_.get_string("backend") + "'");
    evaluator_ = std::move(loaded.evaluator);
    for (auto& w : loaded.warnings) evaluator_warnings_.push_back(std::move(w));
    evaluator_signature_ = sig;
    search_->set_evaluator(evaluator_);
  }
  return evaluator_;
}

std::vector<std::string> Engine::ensure_ready() {
  std::lock_guard lock(mutex_);
  if (searching_) return {};  // a new evaluator waits for the next go()
  evaluator_locked();
  return std::exchange(evaluator_warnings_, {});
}

SearchSnapshot Engine::last_result() const {
  std::lock_guard lock(run_mutex_);
  return last_snapshot_;
}

void Engine::stop_and_wait_locked() {
  std::unique_lock lock(run_mutex_);
  stop_run_locked();
  wake_.notify_all();
  wake_.wait(lock, [this] { return run_ == nullptr; });
}

void Engine::new_game() {
  std::lock_guard lock(mutex_);
  stop_and_wait_locked();
  search_->clear();
  game_ = Game();
  previous_best_q_.reset();
}

void Engine::set_position(std::string_view start_fen, const std::vector<std::string>& moves) {
  // Parse first, so a bad command changes nothing.
  Game g(start_fen.empty() ? Position() : Position::from_fen(start_fen));
  for (const auto& m : moves) g.play_uci(m);
  set_game(g);
}

void Engine::set_game(const Game& game) {
  std::lock_guard lock(mutex_);
  stop_and_wait_locked();
  game_ = game;
}

Game Engine::game() const {
  std::lock_guard lock(mutex_);
  return game_;
}

void Engine::go(const SearchLimits& limits, std::shared_ptr<SearchListener> listener) {
  std::lock_guard lock(mutex_);
  stop_and_wait_locked();
  auto run = std::make_shared<Run>();
  run->start = Clock::now();
  run->limits = limits;
  run->listener = std::move(listener);
  run->params = SearchParams::from(options_);
  time_.set_params(TimeParams::from(options_));
  if (run->params.seed != seeded_with_) {
    search_->seed(run->params.seed);
    time_.seed(run->params.seed);
    seeded_with_ = run->params.seed;
  }
  evaluator_locked();  // throws when the evaluator cannot be built
  run->notes = std::exchange(evaluator_warnings_, {});
  run->reused = search_->set_game(game_, run->params);
  // A repaired defect is worth an operator's attention: the log, and the GUI's info string.
  for (auto& note : search_->take_notes()) {
    log_message(LogLevel::kWarning, "search: " + note);
    run->notes.push_back("WARNING: " + note);
  }
  searching_ = true;
  {
    std::lock_guard run_lock(run_mutex_);
    run_ = std::move(run);
    run_started_ = false;
  }
  wake_.notify_all();
}

void Engine::ponder(std::shared_ptr<SearchListener> listener) {
  SearchLimits limits;
  limits.infinite = true;
  go(limits, std::move(listener));
}

void Engine::stop_run_locked() {
  if (!run_) return;
  run_->stop = true;
  // The workers stop at once, while this thread's wake-up is still on its way: the two
  // overlap instead of adding up. Only the run that holds run_ can be searching now.
  if (run_started_) search_->signal_stop();
}

void Engine::stop() {
  {
    std::lock_guard lock(run_mutex_);
    stop_run_locked();
  }
  wake_.notify_all();
}

void Engine::ponderhit() {
  {
    std::lock_guard lock(run_mutex_);
    if (!run_) return;
    run_->ponderhit = true;
  }
  wake_.notify_all();
}

void Engine::wait() {
  std::lock_guard lock(mutex_);
  std::unique_lock run_lock(run_mutex_);
  wake_.wait(run_lock, [this] { return run_ == nullptr; });
}

void Engine::thread_loop() {
  std::unique_lock lock(run_mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return quit_ || (run_ && !run_started_); });
    if (quit_) return;
    run_started_ = true;
    std::shared_ptr<Run> run = run_;
    lock.unlock();
    search(*run);
    lock.lock();
    run_.reset();
    wake_.notify_all();  // stop_and_wait_locked() and wait()
  }
}

SearchInfo Engine::make_info(const SearchSnapshot& s, std::int64_t elapsed_ms) const {
  SearchInfo info;
  info.pv = s.pv;
  info.depth = int(s.pv.size());
  info.seldepth = std::max(s.seldepth, info.depth);
  info.nodes = s.playouts;
  info.time_ms = elapsed_ms;
  info.nps = elapsed_ms > 0 ? s.playouts * 1000 / elapsed_ms : 0;
  info.evaluations = s.evaluations;
  info.tree_nodes = s.tree_nodes;
  info.tree_bytes = s.tree_bytes;
  info.hashfull = s.memory_cap_bytes
                      ? int(std::min<std::size_t>(1000, s.tree_bytes * 1000 / s.memory_cap_bytes))
                      : 0;
  if (s.root_proof == Proof::kWin || s.root_proof == Proof::kLoss) {
    const int moves = (s.root_proof_plies + 1) / 2;
    info.mate = s.root_proof == Proof::kWin ? moves : -moves;
    info.q = s.root_proof == Proof::kWin ? 1.0f : -1.0f;
    info.cp = s.root_proof == Proof::kWin ? 9999 : -9999;
  } else if (s.best >= 0) {
    info.q = s.children[s.best].q;
    if (s.children[s.best].visits == 0 && s.children[s.best].proof == Proof::kNone)
      info.q = 0;  // nothing searched yet
    info.cp = formulas::value_to_centipawns(info.q);
  }
  return info;
}

void Engine::search(Run& r) {
  SearchListener& out = *r.listener;
  for (const auto& note : r.notes) out.on_message(note);
  if (r.reused > 0) out.on_message("reusing " + std::to_string(r.reused) + " visits of the tree");
  search_->start(r.params, NodeLimits{r.limits.nodes});

  // Plan the time once the root is expanded (the legal move count is known).
  SearchSnapshot snap = search_->snapshot();
  const MoveContext move{game_.position().side_to_move(), int(game_.moves().size() / 2),
                         int(snap.children.size())};
  const TimeBudget budget = time_.plan(r.limits, move);
  Clock::time_point clock_start = r.start;
  bool pondering = r.limits.ponder;
  const bool until_stop = r.limits.infinite;
  Clock::time_point next_info = r.start + kInfoInterval;

  for (;;) {
    bool done = false;
    {
      std::lock_guard lock(run_mutex_);
      if (r.stop) break;
      if (pondering && r.ponderhit) {
        // The clock started when the opponent moved, which is now.
        pondering = false;
        clock_start = Clock::now();
      }
      done = r.search_done;
    }
    const Clock::time_point now = Clock::now();
    if (now >= next_info) {
      out.on_info(make_info(search_->snapshot(), ms_since(r.start)));
      while (next_info <= now) next_info += kInfoInterval;
    }
    Clock::time_point wake_at = next_info;
    // UCI: in infinite and ponder mode the bestmove waits for stop/ponderhit.
    const bool clock_rules = budget.timed && !pondering && !until_stop;
    if (done && !until_stop && !pondering) {
      // A search that ended early (node or tree cap, a proven result, one legal move) still
      // keeps the minimum think time the caller asked for against a human.
      if (!budget.timed) break;
      const Clock::time_point min_end = clock_start + std::chrono::milliseconds(budget.min_ms);
      if (now >= min_end) break;
      wake_at = std::min(wake_at, min_end);
    } else if (!done && clock_rules) {
      snap = search_->snapshot();
      SearchProgress progress;
      progress.elapsed_ms = ms_since(clock_start);
      if (snap.best >= 0 && !snap.children.empty()) {
        progress.easy = time_.is_easy(snap.children[0].prior, snap.best == 0);
        if (previous_best_q_)
          progress.critical = time_.is_critical(snap.children[snap.best].q, *previous_best_q_);
      }
      if (time_.should_stop(budget, progress)) break;
      wake_at = std::min(wake_at, clock_start + std::chrono::milliseconds(time_.next_check_ms(
                                                    budget, progress.elapsed_ms)));
    }
    std::unique_lock lock(run_mutex_);
    wake_.wait_until(lock, wake_at, [&] {
      return r.stop || (pondering && r.ponderhit) || (r.search_done && !done);
    });
  }

  search_->request_stop();
  search_->join();
  snap = search_->snapshot();
  const std::int64_t elapsed = ms_since(r.start);
  SearchInfo info = make_info(snap, elapsed);
  BestMove best;
  best.reason = snap.reason;
  best.error = snap.error;
  if (snap.best >= 0) {
    int choice = snap.best;
    // Optional sampling during our first moves (paper: 0.07 for 4 moves against humans).
    if (r.params.temperature_moves > 0 && move.move_number < r.params.temperature_moves &&
        snap.root_proof == Proof::kNone) {
      MoveChoiceParams mp{r.params.q_factor, r.params.q_thresh_init, r.params.q_thresh_max,
                          r.params.q_thresh_base};
      choice =
          choose_move(snap.children, snap.root_visits, mp, r.params.temperature, &search_->rng());
    }
    best.move = snap.children[choice].move;
    if (choice == snap.best && snap.pv.size() > 1) best.ponder = snap.pv[1];
    // The critical-position rule compares our moves' values. An infinite search is analysis or
    // the bot's pondering on the opponent's move, whose Q is from the other side: not ours.
    if (!r.limits.infinite) previous_best_q_ = snap.children[choice].q;
  }
  if (!snap.error.empty()) out.on_message("search error: " + snap.error);
  {
    std::lock_guard lock(run_mutex_);
    last_snapshot_ = snap;
  }
  out.on_info(info);
  searching_ = false;
  out.on_bestmove(best);
}

}  // namespace zh
