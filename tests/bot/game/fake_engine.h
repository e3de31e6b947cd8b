#pragma once
// A MoveEngine that records what it was asked and answers when the test says so.

#include <functional>
#include <string>
#include <vector>

#include "bot/game/move_engine.h"
#include "engine/chess/notation.h"

namespace zh::bot::test {

// The game's moves as UCI text, for readable expectations.
inline std::vector<std::string> uci_moves(const Game& game) {
  std::vector<std::string> out;
  for (Move m : game.moves()) out.push_back(to_uci(m));
  return out;
}

class FakeEngine final : public MoveEngine {
 public:
  struct Think {
    Game game;
    std::vector<std::string> moves;
    SearchLimits limits;
    std::function<void(const ThinkResult&)> done;
  };

  void new_game() override { ++new_games; }
  void think(const Game& game, const SearchLimits& limits,
             std::function<void(const ThinkResult&)> done) override {
    pondering_ = false;
    thinks.push_back({game, uci_moves(game), limits, std::move(done)});
  }
  void ponder(const Game& game) override {
    pondering_ = true;
    ponders.push_back(uci_moves(game));
  }
  void stop() override {
    ++stops;
    pondering_ = false;
  }
  bool pondering() const override { return pondering_; }
  std::string description() const override { return "fake"; }

  // Answers the latest think with `uci` (a legal move in its position).
  void answer(const std::string& uci, float value = 0.1f, int cp = 10, std::int64_t time_ms = 50) {
    ThinkResult r;
    r.move = parse_uci(thinks.back().game.position(), uci);
    r.value = value;
    r.cp = cp;
    r.nodes = 100;
    r.nps = 2000;
    r.time_ms = time_ms;
    r.best_san = uci;
    thinks.back().done(r);
  }

  std::vector<Think> thinks;
  std::vector<std::vector<std::string>> ponders;
  int new_games = 0;
  int stops = 0;

 private:
  bool pondering_ = false;
};

}  // namespace zh::bot::test
