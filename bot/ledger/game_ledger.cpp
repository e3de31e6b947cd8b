#include "bot/ledger/game_ledger.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace zh::bot {

std::int64_t GameLedger::unix_now_s() const { return unix_seconds(clock_.wall_now()); }

GameLedger::GameLedger(StateFile file, Clock& clock)
    : file_(std::move(file)),
      decliners_(file_.path().parent_path() / "decliners.txt"),
      clock_(clock) {}

void GameLedger::restore() {
  const PersistentState state = file_.load();
  const WallTime wall_now = clock_.wall_now();
  const TimePoint now = clock_.now();
  const std::int64_t unix_now = unix_now_s();
  std::lock_guard lock(mutex_);
  bot_game_starts_.clear();
  declines_.clear();
  for (const std::int64_t unix_s : state.bot_game_starts) {
    const auto age = wall_now - WallTime(std::chrono::seconds(unix_s));
    // Older than the window: forgotten. In the future (the wall clock went back): counted now.
    if (age > kWindow) continue;
    const auto since = std::max(std::chrono::system_clock::duration::zero(), age);
    bot_game_starts_.push_back(now - std::chrono::duration_cast<Millis>(since));
  }
  for (const SeekDecline& d : state.seek_declines)
    if (d.until > unix_now) declines_[d.user_id] = Decline{d.reason, d.until};
  if (!bot_game_starts_.empty())
    spdlog::info("state: {} bot game(s) started in the last 24 h", bot_game_starts_.size());
  if (!declines_.empty())
    spdlog::info("state: {} bot(s) declined our challenges recently and are not asked yet",
                 declines_.size());
}

void GameLedger::record_bot_game() {
  std::lock_guard lock(mutex_);
  const TimePoint now = clock_.now();
  prune_locked(now);
  bot_game_starts_.push_back(now);
  save_locked();  // a restart must not reset the 24 h cap
}

int GameLedger::bot_games_last_24h() const {
  std::lock_guard lock(mutex_);
  const TimePoint now = clock_.now();
  return int(std::count_if(bot_game_starts_.begin(), bot_game_starts_.end(),
                           [&](TimePoint t) { return now - t <= kWindow; }));
}

void GameLedger::remember_decline(const std::string& user_id, const std::string& reason,
                                  std::chrono::seconds for_how_long) {
  std::lock_guard lock(mutex_);
  prune_locked(clock_.now());
  declines_[user_id] = Decline{reason, unix_now_s() + for_how_long.count()};
  save_locked();
}

bool GameLedger::remember_forever(const std::string& user_id, const std::string& reason) {
  std::lock_guard lock(mutex_);
  return decliners_.add(user_id, reason);
}

std::optional<std::string> GameLedger::declined(const std::string& user_id) const {
  std::lock_guard lock(mutex_);
  const auto it = declines_.find(user_id);
  if (it != declines_.end() && it->second.until_unix_s > unix_now_s()) return it->second.reason;
  if (decliners_.ids().count(user_id)) return "listed in " + decliners_.path().filename().string();
  return std::nullopt;
}

void GameLedger::prune_locked(TimePoint now) {
  while (!bot_game_starts_.empty() && now - bot_game_starts_.front() > kWindow)
    bot_game_starts_.pop_front();
  const std::int64_t unix_now = unix_now_s();
  std::erase_if(declines_,
                [&](const auto& entry) { return entry.second.until_unix_s <= unix_now; });
}

void GameLedger::save_locked() const {
  PersistentState state;
  // The state file keeps wall-clock seconds (a restart starts a new steady clock); the ledger
  // keeps its clock's time points: one reading of both clocks converts them all.
  const TimePoint now = clock_.now();
  const WallTime wall_now = clock_.wall_now();
  for (const TimePoint t : bot_game_starts_)
    state.bot_game_starts.push_back(
        unix_seconds(wall_now - std::chrono::duration_cast<WallTime::duration>(now - t)));
  for (const auto& [user, d] : declines_)
    state.seek_declines.push_back(SeekDecline{user, d.reason, d.until_unix_s});
  file_.save(state);
}

std::vector<GameLedger::DeclineEntry> GameLedger::declines() const {
  std::lock_guard lock(mutex_);
  const std::int64_t now = unix_now_s();
  std::vector<DeclineEntry> out;
  for (const auto& [user, d] : declines_)
    if (d.until_unix_s > now) out.push_back({user, d.reason, d.until_unix_s});
  return out;
}

}  // namespace zh::bot
