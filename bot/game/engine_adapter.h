#pragma once
// MoveEngine over the project's Engine facade: one Engine (its own tree) per game; the
// evaluator behind it may be shared by all games (an InferenceService).

#include <atomic>
#include <memory>
#include <mutex>

#include "bot/game/move_engine.h"
#include "engine/engine.h"

namespace zh::bot {

class EngineAdapter final : public MoveEngine {
 public:
  explicit EngineAdapter(std::unique_ptr<Engine> engine);
  ~EngineAdapter() override;

  void new_game(bool sample_opening) override;
  void think(const std::string& initial_fen, const std::vector<std::string>& moves,
             const ThinkLimits& limits, std::function<void(const ThinkResult&)> done) override;
  void ponder(const std::string& initial_fen, const std::vector<std::string>& moves) override;
  void stop() override;
  bool pondering() const override { return pondering_.load(); }
  std::string description() const override;

  // Untimed games (correspondence, unlimited) get this much per move.
  static constexpr std::int64_t kUntimedMoveMs = 10000;
  // Opening moves sampled with the search temperature against humans (paper: 4).
  static constexpr int kOpeningSampledMoves = 4;

 private:
  std::unique_ptr<Engine> engine_;
  std::atomic<bool> pondering_{false};
};

}  // namespace zh::bot
