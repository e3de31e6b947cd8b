#pragma once
// What to do about an opponent who is not playing: abort a game whose first moves never come
// (once, after abort_time_s, or later when the opponent asked to wait), and claim the win when
// lichess says the opponent left (when allowed, a moment after it becomes claimable, up to three
// tries). A game without a clock (correspondence, unlimited) is never aborted: its first move may
// take days.

#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "bot/config/bot_config.h"
#include "bot/lichess/events.h"
#include "bot/lichess/lichess_client.h"
#include "engine/util/clock.h"

namespace zh::bot {

class OpponentWatch {
 public:
  OpponentWatch(std::string game_id, const BotConfig& config, LichessClient& client, Clock& clock,
                std::shared_ptr<spdlog::logger> log);

  // The board after a server state: `plies` moves, whose turn it is, and whether it changed.
  void on_board(int plies, bool our_turn, bool changed);
  void on_opponent_gone(const OpponentGone& gone);
  // From gameFull: the game has no real-time clock.
  void set_clockless(bool clockless) { clockless_ = clockless; }
  // !wait: the opponent asks for time before its first move. The abort moves to kWaitGrant
  // from now (never earlier than it was), up to kMaxWaits times a game; nothing while no first
  // move is awaited, once the abort is sent, or in a game without a clock (never aborted).
  // Returns the seconds left before the abort.
  std::optional<int> grant_wait();
  // Sends the abort or the claim when due.
  void tick(int plies, bool our_turn);
  void cancel() { claim_at_.reset(); }  // the game ended

  static constexpr Millis kClaimMargin{250};  // a claim a moment too early is refused
  static constexpr Millis kClaimRetryDelay{2000};
  static constexpr int kClaimAttempts = 3;
  static constexpr std::chrono::seconds kWaitGrant{60};
  static constexpr int kMaxWaits = 3;

 private:
  std::string game_id_;
  const BotConfig& config_;
  LichessClient& client_;
  Clock& clock_;
  std::shared_ptr<spdlog::logger> log_;
  std::optional<TimePoint> waiting_since_;  // the opponent's first moves are awaited
  std::optional<TimePoint> abort_at_;       // while they are: when the game is aborted
  int waits_granted_ = 0;
  bool abort_sent_ = false;
  bool clockless_ = false;
  std::optional<TimePoint> claim_at_;
  int claim_attempts_ = 0;
};

}  // namespace zh::bot
