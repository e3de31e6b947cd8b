#pragma once
// A MoveEngine that records what it was asked and answers when the test says so.

#include <functional>
#include <string>
#include <vector>

#include "bot/game/move_engine.h"

namespace zh::bot::test {

class FakeEngine final : public MoveEngine {
 public:
  struct Think {
    std::vector<std::string> moves;
    ThinkLimits limits;
    std::function<void(const ThinkResult&)> done;
  };

  void new_game(bool sample_opening) override {
    ++new_games;
    sampled_opening = sample_opening;
  }
  void think(const std::string&, const std::vector<std::string>& moves, const ThinkLimits& limits,
             std::function<void(const ThinkResult&)> done) override {
    pondering_ = false;
    thinks.push_back({moves, limits, std::move(done)});
  }
  void ponder(const std::string&, const std::vector<std::string>& moves) override {
    pondering_ = true;
    ponders.push_back(moves);
  }
  void stop() override {
    ++stops;
    pondering_ = false;
  }
  bool pondering() const override { return pondering_; }
  std::string description() const override { return "fake"; }

  // Answers the latest think.
  void answer(const std::string& uci, float value = 0.1f, int cp = 10, std::int64_t time_ms = 50) {
    ThinkResult r;
    r.uci = uci;
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
  bool sampled_opening = false;

 private:
  bool pondering_ = false;
};

}  // namespace zh::bot::test
