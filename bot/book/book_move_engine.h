#pragma once
// The opening book in front of the search: a MoveEngine that answers from the book (and, when
// configured, lichess's opening explorer) while the game is within book_max_ply, and hands
// every other think to the engine it wraps. The session sees an ordinary MoveEngine; a book
// result says so in ThinkResult::book, which the session shows in its log line and the PGN.
//
// Timing: a book move skips the search, never the rules around it. Against a human it is held
// back until the human minimum think time has passed (capped at 1/20 of our clock, so a book
// move can never flag), and it is always delivered on this object's own thread, as a search
// result would be, so the session's move sender handles it like any other. An explorer query
// runs on that thread too, bounded by its timeout; when it fails, times out or has no move, the
// search gets the clock less the time the query took, and the explorer is not asked again in
// that game.

#include <spdlog/spdlog.h>

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <thread>

#include "bot/book/explorer_watch.h"
#include "bot/book/opening_explorer.h"
#include "bot/config/book_config.h"
#include "bot/game/move_engine.h"
#include "engine/book/opening_book.h"
#include "engine/util/clock.h"

namespace zh::bot {

// What every game's BookMoveEngine reads: loaded once, shared, never changed.
struct BookSources {
  BookConfig config;
  std::shared_ptr<const book::OpeningBook> book;        // null: no book file
  std::shared_ptr<OpeningExplorer> explorer;            // null: the explorer is off
  std::shared_ptr<const ExplorerWatch> explorer_watch;  // its counts, when it is on
  bool explorer_token = false;                          // whether the bot's token goes there
};

// The sources for `config`; throws book::BookError (file, line, problem) for a bad book file.
// Returns null when the book is off. `token`: the bot's lichess token, sent to the explorer
// only where explorer_gets_token allows.
std::shared_ptr<const BookSources> load_book_sources(const BookConfig& config,
                                                     const std::string& token = {});

class BookMoveEngine final : public MoveEngine {
 public:
  // `seed` 0: a random seed (weighted choice). `clock` times the explorer's query and holds
  // a book move back for the human minimum think time.
  BookMoveEngine(std::unique_ptr<MoveEngine> inner, std::shared_ptr<const BookSources> sources,
                 std::uint64_t seed = 0, Clock& clock = steady_clock());
  ~BookMoveEngine() override;

  void new_game() override;
  void think(const Game& game, const SearchLimits& limits,
             std::function<void(const ThinkResult&)> done) override;
  void ponder(const Game& game) override;
  // Delivers a held-back book move at once and returns when it has been delivered.
  void stop() override;
  bool pondering() const override { return inner_->pondering(); }
  std::string description() const override { return inner_->description(); }

  // How long a book move waits: the human minimum think time, at most 1/20 of our clock.
  static std::int64_t book_delay_ms(const SearchLimits& limits, Color us);

 private:
  // A book move from the file, if any (null move otherwise); fills `detail`.
  Move from_book(const Position& pos, std::string& detail);
  Move from_explorer(const ExplorerAnswer& answer, const Position& pos, std::string& detail);
  void explorer_then_search(Game game, SearchLimits limits,
                            std::function<void(const ThinkResult&)> done);
  // Waits `delay_ms` (cut short by stop()) and delivers.
  void deliver_after(ThinkResult result, std::int64_t delay_ms,
                     const std::function<void(const ThinkResult&)>& done);
  void join_worker();

  std::unique_ptr<MoveEngine> inner_;
  std::shared_ptr<const BookSources> sources_;
  Clock& clock_;
  std::shared_ptr<spdlog::logger> log_;
  std::mt19937_64 rng_;
  bool explorer_done_ = false;  // this game: the explorer failed or had no move

  std::mutex mutex_;  // stopped_, and inner_->think from the worker against stop()
  std::condition_variable cv_;
  bool stopped_ = false;
  std::mutex join_mutex_;  // worker_ (stop() may come from the ponder coordinator's thread)
  std::thread worker_;
};

}  // namespace zh::bot
