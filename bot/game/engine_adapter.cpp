#include "bot/game/engine_adapter.h"

#include <chrono>

#include "engine/chess/notation.h"
#include "engine/util/clock.h"

namespace zh::bot {

namespace {

// Collects the last info line and turns the bestmove into a ThinkResult.
class ThinkListener final : public SearchListener {
 public:
  ThinkListener(Position root, std::function<void(const ThinkResult&)> done)
      : root_(std::move(root)), done_(std::move(done)), start_(zh::steady_clock().now()) {}

  void on_info(const SearchInfo& info) override { info_ = info; }

  void on_bestmove(const BestMove& best) override {
    ThinkResult r;
    r.move = best.move;
    if (best.move.is_null()) {
      r.error = best.error.empty() ? "no legal move" : best.error;
    } else {
      try {
        r.best_san = to_san(root_, best.move);
      } catch (const std::exception&) {
        r.best_san = to_uci(best.move);
      }
    }
    r.value = info_.q;
    r.cp = info_.cp;
    r.mate = info_.mate;
    r.nodes = info_.nodes;
    r.nps = info_.nps;
    // Wall time from go() to bestmove: what the session subtracts to find its own overhead.
    r.search_us =
        std::chrono::duration_cast<std::chrono::microseconds>(zh::steady_clock().now() - start_)
            .count();
    r.time_ms = r.search_us / 1000;
    done_(r);
  }

 private:
  Position root_;
  std::function<void(const ThinkResult&)> done_;
  std::chrono::steady_clock::time_point start_;
  SearchInfo info_;
};

class PonderListener final : public SearchListener {
 public:
  explicit PonderListener(std::atomic<bool>& flag) : flag_(flag) {}
  void on_info(const SearchInfo&) override {}
  void on_bestmove(const BestMove&) override { flag_ = false; }

 private:
  std::atomic<bool>& flag_;
};

}  // namespace

EngineAdapter::EngineAdapter(std::unique_ptr<Engine> engine) : engine_(std::move(engine)) {}

EngineAdapter::~EngineAdapter() {
  engine_->stop();
  engine_->wait();
}

void EngineAdapter::new_game() { engine_->new_game(); }

void EngineAdapter::think(const Game& game, const SearchLimits& limits,
                          std::function<void(const ThinkResult&)> done) {
  pondering_ = false;
  // Keeps the subtree of the moves played since the last search (ponder or think).
  engine_->set_game(game);
  try {
    engine_->go(limits, std::make_shared<ThinkListener>(game.position(), done));
  } catch (const std::exception& e) {
    // The evaluator could not be built, say. The session must hear of it, or it would wait for
    // a move forever.
    ThinkResult r;
    r.error = std::string("search not started: ") + e.what();
    done(r);
  }
}

void EngineAdapter::ponder(const Game& game) {
  engine_->set_game(game);
  pondering_ = true;
  engine_->ponder(std::make_shared<PonderListener>(pondering_));
}

void EngineAdapter::stop() { engine_->stop(); }

std::string EngineAdapter::description() const {
  return "zhbot " ZH_VERSION " (MCTS, " + evaluator_config(engine_->options()).backend +
         " evaluator)";
}

}  // namespace zh::bot
