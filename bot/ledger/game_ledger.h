#pragma once
// The bot-game ledger: what the daemon must count across restarts, kept in the state file.
// - Bot-vs-bot game starts of the last 24 h, incoming and outgoing alike: lichess allows 100
//   per bot per rolling day (`bot.vsBot.day`), and a restart must not reset the count.
// - Bots that declined our matchmaking challenges, with the reason and until when they are
//   not asked again; and those never asked again, in decliners.txt beside the state file.
// Its own lock; every change is written through at once (the file is a few hundred bytes).

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bot/state/decliner_file.h"
#include "bot/state/state_file.h"
#include "engine/util/clock.h"

namespace zh::bot {

class GameLedger {
 public:
  static constexpr auto kWindow = std::chrono::hours(24);

  GameLedger(StateFile file, Clock& clock);

  // Reads the state file (a missing or corrupt one gives an empty ledger).
  void restore();

  void record_bot_game();
  int bot_games_last_24h() const;

  // `user_id` declined with `reason`: not asked again for `for_how_long`.
  void remember_decline(const std::string& user_id, const std::string& reason,
                        std::chrono::seconds for_how_long);
  // `user_id` is never asked again: listed in decliners.txt (false when it cannot be written).
  bool remember_forever(const std::string& user_id, const std::string& reason);
  // The reason `user_id` declined, while that still holds ("listed in decliners.txt" for one
  // never asked again).
  std::optional<std::string> declined(const std::string& user_id) const;
  const DeclinerFile& decliners() const { return decliners_; }
  struct DeclineEntry {
    std::string user_id;
    std::string reason;
    std::int64_t until_unix_s = 0;
  };
  // The bots not asked again for now, with why and until when (the status page's list).
  std::vector<DeclineEntry> declines() const;

 private:
  struct Decline {
    std::string reason;
    std::int64_t until_unix_s = 0;
  };
  void prune_locked(TimePoint now);
  void save_locked() const;
  // Wall-clock seconds (the state file's unit: it outlives a restart), by the ledger's clock.
  std::int64_t unix_now_s() const;

  StateFile file_;
  DeclinerFile decliners_;
  Clock& clock_;
  mutable std::mutex mutex_;
  std::deque<TimePoint> bot_game_starts_;
  std::map<std::string, Decline> declines_;
};

}  // namespace zh::bot
