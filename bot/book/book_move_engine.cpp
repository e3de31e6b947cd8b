#include "bot/book/book_move_engine.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <utility>

#include "engine/book/book_builder.h"
#include "engine/chess/notation.h"
#include "engine/util/clock.h"

namespace zh::bot {

namespace {

// Half-moves played before `pos`, from its move number (what the book builder counts).
int ply_of(const Position& pos) {
  return 2 * (pos.fullmove_number() - 1) + (pos.side_to_move() == kBlack ? 1 : 0);
}

std::optional<std::int64_t> our_clock(const SearchLimits& limits, Color us) {
  return us == kWhite ? limits.wtime : limits.btime;
}

// The explorer is skipped when its whole timeout would be more than this share of our clock.
constexpr std::int64_t kExplorerClockShare = 20;

// The answer for a move taken from a book source ("book", "explorer") instead of the search.
ThinkResult book_answer(const Position& pos, Move m, const char* source, std::string detail) {
  ThinkResult r;
  r.move = m;
  r.best_san = to_san(pos, m);
  r.book = source;
  r.book_detail = std::move(detail);
  return r;
}

}  // namespace

std::shared_ptr<const BookSources> load_book_sources(const BookConfig& config,
                                                     const std::string& token) {
  if (!config.enabled) return nullptr;
  auto sources = std::make_shared<BookSources>();
  sources->config = config;
  if (!config.file.empty())
    sources->book = std::make_shared<const book::OpeningBook>(book::OpeningBook::load(config.file));
  if (config.explorer) {
    sources->explorer_token =
        !token.empty() && explorer_gets_token(config.explorer_url, config.explorer_send_token);
    auto http = std::make_shared<HttpOpeningExplorer>(
        config.explorer_url, Millis(config.explorer_timeout_ms),
        sources->explorer_token ? token : std::string());
    auto watch = std::make_shared<ExplorerWatch>(std::move(http), config.explorer_url,
                                                 sources->explorer_token);
    sources->explorer_watch = watch;
    sources->explorer = std::move(watch);
  }
  return sources;
}

BookMoveEngine::BookMoveEngine(std::unique_ptr<MoveEngine> inner,
                               std::shared_ptr<const BookSources> sources, std::uint64_t seed,
                               Clock& clock)
    : inner_(std::move(inner)),
      sources_(std::move(sources)),
      clock_(clock),
      log_(spdlog::default_logger()),
      rng_(seed != 0 ? seed : std::random_device{}() * 0x100000001ull) {}

BookMoveEngine::~BookMoveEngine() { stop(); }

void BookMoveEngine::join_worker() {
  std::lock_guard lock(join_mutex_);
  // Never from the worker itself (a caller that answers a result synchronously, say).
  if (worker_.joinable() && worker_.get_id() != std::this_thread::get_id()) worker_.join();
}

void BookMoveEngine::new_game() {
  join_worker();
  explorer_done_ = false;
  inner_->new_game();
}

std::int64_t BookMoveEngine::book_delay_ms(const SearchLimits& limits, Color us) {
  std::int64_t delay = limits.human_opponent ? limits.min_think_ms : 0;
  if (const auto clock = our_clock(limits, us)) delay = std::min(delay, *clock / 20);
  return std::max<std::int64_t>(0, delay);
}

Move BookMoveEngine::from_book(const Position& pos, std::string& detail) {
  if (!sources_->book) return Move();
  const auto& moves = sources_->book->moves(pos);
  const BookConfig& c = sources_->config;
  const Move m = book::choose_move(moves, c.selection, std::uint32_t(c.min_weight), rng_);
  if (m.is_null()) return m;
  std::uint64_t total = 0, weight = 0;
  for (const auto& b : moves) {
    if (b.weight >= c.min_weight) total += b.weight;
    if (b.move == m) weight = b.weight;
  }
  detail = "weight " + std::to_string(weight) + " of " + std::to_string(total);
  return m;
}

Move BookMoveEngine::from_explorer(const ExplorerAnswer& answer, const Position& pos,
                                   std::string& detail) {
  std::vector<book::BookMove> moves;
  std::vector<std::int64_t> games;
  for (const ExplorerMove& e : answer.moves) {
    if (e.games() < sources_->config.explorer_min_games) continue;
    Move m;
    try {
      m = parse_uci(pos, e.uci);
    } catch (const MoveError&) {
      continue;  // a move we cannot read is not worth the game
    }
    const double white_points = double(e.white) + 0.5 * double(e.draws);
    const double points =
        pos.side_to_move() == kWhite ? white_points : double(e.games()) - white_points;
    moves.push_back({m, book::BookBuilder::weight(e.games(), points)});
    games.push_back(e.games());
  }
  std::vector<book::BookMove> sorted = moves;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.weight > b.weight; });
  const Move m = book::choose_move(sorted, sources_->config.selection, 1, rng_);
  for (std::size_t i = 0; i < moves.size(); ++i)
    if (moves[i].move == m) detail = std::to_string(games[i]) + " games";
  return m;
}

void BookMoveEngine::think(const Game& game, const SearchLimits& limits,
                           std::function<void(const ThinkResult&)> done) {
  join_worker();  // the last book answer has been delivered (or stopped) by now
  {
    std::lock_guard lock(mutex_);
    stopped_ = false;
  }
  const Position& pos = game.position();
  const bool in_book = sources_ && ply_of(pos) < sources_->config.max_ply;
  if (in_book) {
    std::string detail;
    const Move m = from_book(pos, detail);
    if (!m.is_null()) {
      // A ponder search from our last move would run on beside the book: the engine's own
      // think() ends it, a book answer must too.
      if (inner_->pondering()) inner_->stop();
      const ThinkResult r = book_answer(pos, m, "book", std::move(detail));
      const std::int64_t delay = book_delay_ms(limits, pos.side_to_move());
      std::lock_guard lock(join_mutex_);
      worker_ = std::thread([this, r, delay, done] { deliver_after(r, delay, done); });
      return;
    }
    const auto clock = our_clock(limits, pos.side_to_move());
    const bool clock_allows =
        !clock || *clock > kExplorerClockShare * sources_->config.explorer_timeout_ms;
    if (sources_->explorer && !explorer_done_ && clock_allows) {
      std::lock_guard lock(join_mutex_);
      worker_ =
          std::thread([this, game, limits, done] { explorer_then_search(game, limits, done); });
      return;
    }
  }
  inner_->think(game, limits, std::move(done));
}

void BookMoveEngine::explorer_then_search(Game game, SearchLimits limits,
                                          std::function<void(const ThinkResult&)> done) {
  const Position& pos = game.position();
  const auto start = clock_.now();
  const ExplorerAnswer answer = sources_->explorer->query(pos.fen());
  const std::int64_t spent = ms_between(start, clock_.now());
  std::string detail;
  const Move m = answer.error.empty() ? from_explorer(answer, pos, detail) : Move();
  if (!m.is_null()) {
    {
      std::lock_guard lock(mutex_);
      if (inner_->pondering()) inner_->stop();
    }
    ThinkResult r = book_answer(pos, m, "explorer", std::move(detail));
    const std::int64_t delay = book_delay_ms(limits, pos.side_to_move());
    r.time_ms = spent;  // the part of the wait already gone
    deliver_after(r, std::max<std::int64_t>(0, delay - spent), done);
    return;
  }
  explorer_done_ = true;  // only this thread writes it while a think runs
  // A failure is said once by the ExplorerWatch, not again in every game.
  log_->log(answer.error.empty() ? spdlog::level::info : spdlog::level::debug,
            "opening explorer: {} after {} ms; searching, and not asking again this game",
            answer.error.empty() ? "no move played often enough" : answer.error, spent);
  // The search plans with the clock as it is now: the time the query took is gone.
  std::optional<std::int64_t>& clock = pos.side_to_move() == kWhite ? limits.wtime : limits.btime;
  if (clock) *clock = std::max<std::int64_t>(1, *clock - spent);
  limits.min_think_ms = std::max<std::int64_t>(0, limits.min_think_ms - spent);
  std::unique_lock lock(mutex_);
  if (stopped_) {
    lock.unlock();
    ThinkResult r;
    r.error = "stopped before the search started";
    done(r);
    return;
  }
  inner_->think(game, limits, std::move(done));
}

void BookMoveEngine::deliver_after(ThinkResult result, std::int64_t delay_ms,
                                   const std::function<void(const ThinkResult&)>& done) {
  const auto start = clock_.now();
  {
    std::unique_lock lock(mutex_);
    clock_.wait_until(lock, cv_, start + std::chrono::milliseconds(delay_ms),
                      [this] { return stopped_; });
  }
  result.time_ms += ms_between(start, clock_.now());
  result.search_us = result.time_ms * 1000;
  done(result);
}

void BookMoveEngine::ponder(const Game& game) {
  join_worker();
  inner_->ponder(game);
}

void BookMoveEngine::stop() {
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    inner_->stop();
  }
  cv_.notify_all();
  // A held-back book move goes out now; waiting for it here means no answer can arrive after
  // the session has let go of this engine (an explorer query holds this up to its timeout).
  join_worker();
}

}  // namespace zh::bot
