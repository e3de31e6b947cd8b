#include "engine/engine.h"

#include <algorithm>
#include <utility>

#include "engine/chess/notation.h"
#include "engine/log.h"
#include "engine/search/move_choice.h"
#include "engine/search/params.h"

namespace zh {

namespace {

LoadedEvaluator default_loader(const Options& options) {
  return load_evaluator(options, LoadPolicy::interactive());
}

constexpr Millis kInfoInterval(1000);

// What the stop rules read from the tree.
SearchFigures figures_of(const SearchSnapshot& s, const SearchParams& params) {
  SearchFigures f;
  if (s.best >= 0 && !s.children.empty()) {
    f.top_prior = s.children[0].prior;  // edges are in prior order
    f.top_prior_is_best = s.best == 0;
    f.best_q = s.children[std::size_t(s.best)].q;
    f.challenger_share = challenger_share(s.children, s.best);
    f.visits_to_change = visits_to_change(s.children, s.best, s.root_visits, params.move_choice());
    f.playouts = s.playouts;
  }
  return f;
}

}  // namespace

// The state of one go(), shared by the API thread (stop/ponderhit) and the search thread;
// the flags are guarded by Engine::run_mutex_.
struct Engine::Run {
  SearchLimits limits;
  SearchParams params;
  std::shared_ptr<SearchListener> listener;
  TimePoint start;
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

Engine::Engine(Clock& clock) : Engine(default_loader, clock) {}

Engine::Engine(EvaluatorLoader loader, Clock& clock)
    : loader_(std::move(loader)), clock_(clock), stop_rules_(TimeParams::defaults()) {
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
  DeviceProfile::of(options_).apply(options_);  // a device change moves the sized defaults
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
  stop_rules_.new_game();
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
  run->start = clock_.now();
  run->limits = limits;
  run->listener = std::move(listener);
  run->params = SearchParams::from(options_);
  stop_rules_.set_params(TimeParams::from(options_));
  if (run->params.seed != seeded_with_) {
    search_->seed(run->params.seed);
    stop_rules_.seed(run->params.seed);
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

void Engine::search(Run& r) {
  SearchListener& out = *r.listener;
  for (const auto& note : r.notes) out.on_message(note);
  if (r.reused > 0) out.on_message("reusing " + std::to_string(r.reused) + " visits of the tree");
  search_->start(r.params, NodeLimits{r.limits.nodes});

  // Plan the time once the root is expanded (the legal move count is known).
  SearchSnapshot snap = search_->snapshot();
  const MoveContext move{game_.position().side_to_move(), int(game_.moves().size() / 2),
                         int(snap.children.size())};
  stop_rules_.begin(r.limits, move, r.start);
  bool pondering = stop_rules_.pondering();
  TimePoint next_info = r.start + kInfoInterval;
  std::optional<TimePoint> rules_stop;  // when the time rules ended the search

  for (;;) {
    bool done = false;
    {
      std::lock_guard lock(run_mutex_);
      if (r.stop) break;
      if (pondering && r.ponderhit) {
        stop_rules_.ponderhit(clock_.now());
        pondering = false;
      }
      done = r.search_done;
    }
    const TimePoint now = clock_.now();
    if (now >= next_info) {
      out.on_info(make_search_info(search_->snapshot(), ms_between(r.start, now)));
      while (next_info <= now) next_info += kInfoInterval;
    }
    SearchFigures figures;
    if (!done && stop_rules_.watches_tree()) figures = figures_of(search_->snapshot(), r.params);
    figures.finished = done;
    const StopVerdict verdict = stop_rules_.check(figures, now);
    if (verdict.stop) {
      if (!done) rules_stop = now;
      break;
    }
    const TimePoint wake_at =
        verdict.recheck_at ? std::min(next_info, *verdict.recheck_at) : next_info;
    std::unique_lock lock(run_mutex_);
    clock_.wait_until(lock, wake_, wake_at, [&] {
      return r.stop || (pondering && r.ponderhit) || (r.search_done && !done);
    });
  }

  search_->request_stop();
  search_->join();
  snap = search_->snapshot();
  const SearchInfo info = make_search_info(snap, ms_between(r.start, clock_.now()));
  const int choice = choose_played_move(r, snap, move.move_number);
  const BestMove best = make_bestmove(snap, choice);
  stop_rules_.end(choice >= 0 ? std::optional<double>(snap.children[choice].q) : std::nullopt,
                  rules_stop);
  if (!snap.error.empty()) out.on_message("search error: " + snap.error);
  {
    std::lock_guard lock(run_mutex_);
    last_snapshot_ = snap;
  }
  out.on_info(info);
  searching_ = false;
  out.on_bestmove(best);
}

int Engine::choose_played_move(const Run& r, const SearchSnapshot& snap, int move_number) {
  if (snap.best < 0) return -1;
  // Optional sampling during our first moves (paper: 0.07 for 4 moves against humans).
  if (move_number < r.limits.sampled_moves && snap.root_proof == Proof::kNone) {
    return choose_move(snap.children, snap.root_visits, r.params.move_choice(),
                       r.params.temperature, &search_->rng());
  }
  return snap.best;
}

}  // namespace zh
