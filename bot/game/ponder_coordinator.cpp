#include "bot/game/ponder_coordinator.h"

#include <vector>

namespace zh::bot {

void PonderCoordinator::set_games_running(int games) {
  std::vector<std::function<void()>> to_stop;
  {
    std::lock_guard lock(mutex_);
    games_running_ = games;
    if (single_game_only_ && games > 1) {
      for (auto& [id, stop] : ponderers_) to_stop.push_back(std::move(stop));
      ponderers_.clear();
    }
  }
  for (auto& stop : to_stop) stop();
}

bool PonderCoordinator::may_ponder(bool opponent_is_bot) const {
  std::lock_guard lock(mutex_);
  if (single_game_only_ && games_running_ > 1) return false;
  switch (mode_) {
    case PonderMode::kOff:
      return false;
    case PonderMode::kOn:
      return true;
    case PonderMode::kHumans:
      return !opponent_is_bot;
    case PonderMode::kBots:
      return opponent_is_bot;
  }
  return false;
}

void PonderCoordinator::pondering(const std::string& game_id, std::function<void()> stop) {
  std::lock_guard lock(mutex_);
  ponderers_[game_id] = std::move(stop);
}

void PonderCoordinator::stopped_pondering(const std::string& game_id) {
  std::lock_guard lock(mutex_);
  ponderers_.erase(game_id);
}

void PonderCoordinator::must_move(const std::string& game_id) {
  std::vector<std::function<void()>> to_stop;
  {
    std::lock_guard lock(mutex_);
    for (auto it = ponderers_.begin(); it != ponderers_.end();) {
      if (it->first == game_id) {
        ++it;
        continue;
      }
      to_stop.push_back(std::move(it->second));
      it = ponderers_.erase(it);
    }
  }
  for (auto& stop : to_stop) stop();
}

}  // namespace zh::bot
