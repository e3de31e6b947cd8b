#pragma once
// MoveEngine over the project's Engine facade: one Engine (its own tree and search thread) per
// game; the evaluator behind it may be shared by all games (an InferenceService).

#include <atomic>
#include <memory>

#include "bot/game/move_engine.h"
#include "engine/engine.h"

namespace zh::bot {

class EngineAdapter final : public MoveEngine {
 public:
  explicit EngineAdapter(std::unique_ptr<Engine> engine);
  ~EngineAdapter() override;

  void new_game() override;
  void think(const Game& game, const SearchLimits& limits,
             std::function<void(const ThinkResult&)> done) override;
  void ponder(const Game& game) override;
  void stop() override;
  bool pondering() const override { return pondering_.load(); }
  std::string description() const override;

 private:
  std::unique_ptr<Engine> engine_;
  std::atomic<bool> pondering_{false};
};

}  // namespace zh::bot
