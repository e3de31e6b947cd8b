#pragma once
// What the book tests share: a thread-safe recording engine (the book answers on its own
// thread, and its explorer path starts the search from there) and a scripted explorer.

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "bot/book/book_move_engine.h"
#include "engine/chess/notation.h"
#include "tests/bot/result_sink.h"
#include "tests/support/waitable_log.h"

namespace zh::bot::test {

using namespace std::chrono_literals;

inline Game game_after(const std::string& uci_moves) {
  Game game;
  std::istringstream in(uci_moves);
  std::string m;
  while (in >> m) game.play_uci(m);
  return game;
}

class RecordingEngine final : public MoveEngine {
 public:
  struct Call {
    std::string moves;  // the game's moves, UCI, space-separated
    SearchLimits limits;
    std::function<void(const ThinkResult&)> done;
  };
  void new_game() override { ++new_games; }
  void think(const Game& game, const SearchLimits& limits,
             std::function<void(const ThinkResult&)> done) override {
    std::string moves;
    for (Move m : game.moves()) {
      if (!moves.empty()) moves += ' ';
      moves += to_uci(m);
    }
    calls_.add({moves, limits, std::move(done)});
  }
  void ponder(const Game&) override { pondering_ = true; }
  void stop() override {
    ++stops;
    pondering_ = false;
  }
  bool pondering() const override { return pondering_; }
  std::string description() const override { return "recording"; }

  std::optional<Call> wait_think(std::size_t n, std::chrono::milliseconds timeout = 10s) {
    return calls_.wait(n, timeout);
  }
  std::size_t thinks() { return calls_.size(); }
  std::atomic<int> new_games{0};
  std::atomic<int> stops{0};

 private:
  zh::test::WaitableLog<Call> calls_;
  std::atomic<bool> pondering_{false};
};

class ScriptedExplorer final : public OpeningExplorer {
 public:
  explicit ScriptedExplorer(ExplorerAnswer answer) : answer_(std::move(answer)) {}
  ExplorerAnswer query(const std::string& fen) override {
    std::lock_guard lock(mutex_);
    fens_.push_back(fen);
    return answer_;
  }
  std::size_t queries() {
    std::lock_guard lock(mutex_);
    return fens_.size();
  }

 private:
  std::mutex mutex_;
  ExplorerAnswer answer_;
  std::vector<std::string> fens_;
};

// A book: 1. e4 (and 1. d4, lighter) for White, ...e5 against 1. e4 for Black, and after
// 1. e4 d5 2. exd5 Qxd5 the drop 3. P@e4.
inline std::shared_ptr<const book::OpeningBook> small_book() {
  const std::string text =
      "zhbot-book 1\n"
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - | e2e4:300 d2d4:100\n"
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR/ b KQkq - | e7e5:10\n"
      "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR/Pp w KQkq - | P@e4:5\n";
  return std::make_shared<const book::OpeningBook>(book::OpeningBook::parse(text, "small"));
}

inline BookConfig book_config() {
  BookConfig c{};
  c.enabled = true;
  c.file = "small";
  c.max_ply = 16;
  c.min_weight = 1;
  c.selection = book::Selection::kBest;
  c.explorer = false;
  c.explorer_url = "http://127.0.0.1:1/unused";
  c.explorer_timeout_ms = 500;
  c.explorer_min_games = 10;
  return c;
}

}  // namespace zh::bot::test
