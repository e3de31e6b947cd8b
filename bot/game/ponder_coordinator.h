#pragma once
// Pondering across games. All games share the CPU/GPU, so a game that must move comes first:
// any pondering elsewhere is stopped when a game starts thinking, and (by default) nobody
// ponders while more than one game runs.

#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "bot/config/bot_config.h"

namespace zh::bot {

class PonderCoordinator {
 public:
  PonderCoordinator(PonderMode mode, bool single_game_only)
      : mode_(mode), single_game_only_(single_game_only) {}

  void set_games_running(int games);
  // May this game ponder now, against this kind of opponent?
  bool may_ponder(bool opponent_is_bot) const;

  // A game started pondering; `stop` ends it (called without the coordinator's lock held).
  void pondering(const std::string& game_id, std::function<void()> stop);
  void stopped_pondering(const std::string& game_id);
  // A game must move: every other game's pondering stops at once.
  void must_move(const std::string& game_id);

 private:
  PonderMode mode_;
  bool single_game_only_;
  mutable std::mutex mutex_;
  int games_running_ = 0;
  std::map<std::string, std::function<void()>> ponderers_;
};

}  // namespace zh::bot
