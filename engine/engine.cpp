#include "engine/engine.h"

#include <algorithm>
#include <utility>

#include "engine/chess/notation.h"
#include "engine/search/formulas.h"
#include "engine/search/params.h"

namespace zh {

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t ms_since(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

LoadedEvaluator default_factory(const Options& options) {
  return load_evaluator(options, EvaluatorLoad::kFallback);
}

constexpr int kInfoIntervalMs = 1000;
constexpr int kPollMs = 5;

}  // namespace

// The state of one go(), shared by the API thread (stop/ponderhit) and the search thread.
struct Engine::Run {
  GoLimits limits;
  SearchParams params;
  std::shared_ptr<SearchListener> listener;
  Clock::time_point start;
  std::mutex mutex;
  std::condition_variable cv;
  bool stop = false;
  bool ponderhit = false;
  std::uint32_t reused = 0;
  std::vector<std::string> notes;  // reported before the search starts
};

void Engine::declare_options(Options& options) {
  SearchParams::declare(options);
  TimeParams::declare(options);
  declare_evaluator_options(options);
}

Engine::Engine() : Engine(default_factory) {}

Engine::Engine(EvaluatorFactory factory)
    : factory_(std::move(factory)), time_(TimeParams::defaults()) {
  declare_options(options_);
  search_ = std::make_unique<Search>(nullptr);
}

Engine::~Engine() {
  std::lock_guard lock(mutex_);
  stop_and_join_locked();
}

void Engine::set_option(std::string_view name, std::string_view value) {
  std::lock_guard lock(mutex_);
  options_.set(name, value);
}

Options Engine::options() const {
  std::lock_guard lock(mutex_);
  return options_;
}

std::shared_ptr<Evaluator> Engine::evaluator_locked() {
  const std::string sig = evaluator_signature(options_);
  if (!evaluator_ || sig != evaluator_signature_) {
    LoadedEvaluator loaded = factory_(options_);
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

void Engine::stop_and_join_locked() {
  {
    std::lock_guard lock(run_mutex_);
    if (run_) {
      std::lock_guard run_lock(run_->mutex);
      run_->stop = true;
      run_->cv.notify_all();
    }
  }
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(run_mutex_);
  run_.reset();
}

void Engine::new_game() {
  std::lock_guard lock(mutex_);
  stop_and_join_locked();
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
  stop_and_join_locked();
  game_ = game;
}

Game Engine::game() const {
  std::lock_guard lock(mutex_);
  return game_;
}

void Engine::go(const GoLimits& limits, std::shared_ptr<SearchListener> listener) {
  std::lock_guard lock(mutex_);
  stop_and_join_locked();
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
  {
    std::lock_guard run_lock(run_mutex_);
    run_ = run;
  }
  searching_ = true;
  thread_ = std::thread([this, run] { this->run(run); });
}

void Engine::ponder(std::shared_ptr<SearchListener> listener) {
  GoLimits limits;
  limits.infinite = true;
  go(limits, std::move(listener));
}

void Engine::stop() {
  std::lock_guard lock(run_mutex_);
  if (!run_) return;
  std::lock_guard run_lock(run_->mutex);
  run_->stop = true;
  run_->cv.notify_all();
}

void Engine::ponderhit() {
  std::lock_guard lock(run_mutex_);
  if (!run_) return;
  std::lock_guard run_lock(run_->mutex);
  run_->ponderhit = true;
  run_->cv.notify_all();
}

void Engine::wait() {
  std::lock_guard lock(mutex_);
  if (thread_.joinable()) thread_.join();
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

void Engine::run(std::shared_ptr<Run> r) {
  SearchListener& out = *r->listener;
  for (const auto& note : r->notes) out.on_message(note);
  if (r->reused > 0) out.on_message("reusing " + std::to_string(r->reused) + " visits of the tree");
  search_->start(r->params, NodeLimits{r->limits.nodes});

  // Plan the time once the root is expanded (the legal move count is known).
  const Color us = game_.position().side_to_move();
  ClockInput clock;
  const auto& mine = us == kWhite ? r->limits.wtime : r->limits.btime;
  if (mine) clock.remaining_ms = std::max<std::int64_t>(0, *mine);
  clock.increment_ms = us == kWhite ? r->limits.winc : r->limits.binc;
  clock.moves_to_go = r->limits.movestogo;
  clock.move_number = int(game_.moves().size() / 2);
  clock.movetime_ms = r->limits.movetime;
  clock.human_opponent = r->limits.human_opponent;
  clock.min_think_ms = r->limits.min_think_ms;
  SearchSnapshot snap = search_->snapshot();
  clock.legal_moves = int(snap.children.size());
  TimeBudget budget = time_.plan(clock);
  Clock::time_point clock_start = r->start;
  bool pondering = r->limits.ponder;
  const bool until_stop = r->limits.infinite;
  std::int64_t last_info = 0;

  for (;;) {
    bool stop_now = false;
    // Sleep on whichever event can end the wait: the search finishing on its own, or (once
    // it has) a stop/ponderhit. Either way the other is seen within kPollMs.
    if (!search_->finished()) search_->wait_finished_for(kPollMs);
    {
      std::unique_lock lock(r->mutex);
      if (search_->finished() && (until_stop || pondering))
        r->cv.wait_for(lock, std::chrono::milliseconds(kPollMs),
                       [&] { return r->stop || (pondering && r->ponderhit); });
      if (r->stop) stop_now = true;
      if (pondering && r->ponderhit) {
        // The clock started when the opponent moved, which is now.
        pondering = false;
        clock_start = Clock::now();
      }
    }
    if (stop_now) break;
    const std::int64_t elapsed = ms_since(r->start);
    if (elapsed - last_info >= kInfoIntervalMs) {
      last_info = elapsed;
      snap = search_->snapshot();
      out.on_info(make_info(snap, elapsed));
    }
    const bool done = search_->finished();
    // UCI: in infinite and ponder mode the bestmove waits for stop/ponderhit.
    if (done && !until_stop && !pondering) {
      // A search that ended early (node or tree cap, a proven result, one legal move) still
      // keeps the minimum think time the caller asked for against a human.
      const std::int64_t left = budget.timed ? budget.min_ms - ms_since(clock_start) : 0;
      if (left <= 0) break;
      std::unique_lock lock(r->mutex);
      r->cv.wait_for(lock, std::chrono::milliseconds(std::min<std::int64_t>(left, kPollMs)),
                     [&] { return r->stop; });
      continue;
    }
    if (done) continue;
    if (pondering || until_stop || !budget.timed) continue;
    snap = search_->snapshot();
    SearchProgress progress;
    progress.elapsed_ms = ms_since(clock_start);
    if (snap.best >= 0 && !snap.children.empty()) {
      progress.easy = time_.is_easy(snap.children[0].prior, snap.best == 0);
      if (previous_best_q_)
        progress.critical = time_.is_critical(snap.children[snap.best].q, *previous_best_q_);
    }
    if (time_.should_stop(budget, progress)) break;
  }

  search_->request_stop();
  search_->join();
  snap = search_->snapshot();
  const std::int64_t elapsed = ms_since(r->start);
  SearchInfo info = make_info(snap, elapsed);
  BestMove best;
  best.reason = snap.reason;
  best.error = snap.error;
  if (snap.best >= 0) {
    int choice = snap.best;
    // Optional sampling during our first moves (paper: 0.07 for 4 moves against humans).
    const int our_move = int(game_.moves().size() / 2);
    if (r->params.temperature_moves > 0 && our_move < r->params.temperature_moves &&
        snap.root_proof == Proof::kNone) {
      MoveChoiceParams mp{r->params.q_factor, r->params.q_thresh_init, r->params.q_thresh_max,
                          r->params.q_thresh_base};
      choice =
          choose_move(snap.children, snap.root_visits, mp, r->params.temperature, &search_->rng());
    }
    best.move = snap.children[choice].move;
    if (choice == snap.best && snap.pv.size() > 1) best.ponder = snap.pv[1];
    // The critical-position rule compares our moves' values. An infinite search is analysis or
    // the bot's pondering on the opponent's move, whose Q is from the other side: not ours.
    if (!r->limits.infinite) previous_best_q_ = snap.children[choice].q;
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
