#include "bot/ledger/session_table.h"

namespace zh::bot {

bool SessionTable::start(const std::string& game_id, const std::string& opponent_id, bool bot,
                         const Factory& make) {
  std::lock_guard lock(mutex_);
  if (sessions_.count(game_id) || finished_.contains(game_id)) return false;
  auto session = make();
  if (!session) return false;
  sessions_[game_id] = Running{std::move(session), opponent_id, bot};
  return true;
}

bool SessionTable::finished(const std::string& game_id) const {
  std::lock_guard lock(mutex_);
  return finished_.contains(game_id);
}

bool SessionTable::contains(const std::string& game_id) const {
  std::lock_guard lock(mutex_);
  return sessions_.count(game_id) != 0;
}

void SessionTable::on_game_finish(const GameInfo& game) {
  std::lock_guard lock(mutex_);
  finished_.insert(game.game_id);
  auto it = sessions_.find(game.game_id);
  if (it != sessions_.end()) it->second.session->game_finished(game);
}

std::vector<std::unique_ptr<GameSession>> SessionTable::take_done() {
  std::vector<std::unique_ptr<GameSession>> done;
  std::lock_guard lock(mutex_);
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    if (it->second.session->done()) {
      finished_.insert(it->first);
      done.push_back(std::move(it->second.session));
      it = sessions_.erase(it);
    } else {
      ++it;
    }
  }
  return done;
}

std::vector<std::unique_ptr<GameSession>> SessionTable::take_all() {
  std::vector<std::unique_ptr<GameSession>> all;
  std::lock_guard lock(mutex_);
  for (auto& [id, running] : sessions_) all.push_back(std::move(running.session));
  sessions_.clear();
  return all;
}

void SessionTable::shutdown_all() {
  std::lock_guard lock(mutex_);
  for (auto& [id, running] : sessions_) running.session->shutdown();
}

int SessionTable::running() const {
  std::lock_guard lock(mutex_);
  int n = 0;
  for (const auto& [id, running] : sessions_) n += !running.session->done();
  return n;
}

int SessionTable::running_bots() const {
  std::lock_guard lock(mutex_);
  int n = 0;
  for (const auto& [id, running] : sessions_) n += !running.session->done() && running.bot;
  return n;
}

int SessionTable::with_opponent(const std::string& opponent_id) const {
  std::lock_guard lock(mutex_);
  int n = 0;
  for (const auto& [id, running] : sessions_)
    n += !running.session->done() && running.opponent_id == opponent_id;
  return n;
}

int SessionTable::size() const {
  std::lock_guard lock(mutex_);
  return int(sessions_.size());
}

}  // namespace zh::bot
