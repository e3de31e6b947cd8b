#pragma once
// The outgoing side of the challenge desk (matchmaking): when the bot has been idle, it
// challenges an online bot that fits (bot/desk/matchmaker.h chooses whom, with which clock),
// follows that challenge until it is accepted, declined, canceled or timed out, remembers who
// declined and for how long (the ledger), and keeps lichess's daily bot-game limit and its rate
// limits. Every step is counted in /metrics (zhbot_matchmaking_total{step=...}) and logged.
//
// Threads: it is part of the desk and guarded by the desk's lock. Every method is called with
// that lock held, except the seek job it posts to the desk's worker, which takes the lock
// itself between its HTTP calls.

#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "bot/config/bot_config.h"
#include "bot/desk/desk_deps.h"
#include "bot/desk/desk_worker.h"
#include "bot/status/status_model.h"

namespace zh::bot {

class Seeker {
 public:
  // What it shares with the desk that owns it.
  struct FromDesk {
    std::mutex* mutex = nullptr;   // the lock that guards the desk and this
    DeskWorker* worker = nullptr;  // every HTTP call goes there
    Account* account = nullptr;    // ours, kept under that lock
    // Non-empty while the desk refuses new games (draining, ...): no seeking, and our
    // challenge is canceled. Called with the lock held.
    std::function<std::string()> refusal;
  };

  Seeker(const BotConfig& config, DeskDeps deps, FromDesk desk);

  // Our challenge is being made or waits for an answer: it holds a game slot.
  bool active() const { return outgoing_.has_value(); }
  // Lichess said our daily bot-game limit is reached: no bot game may start before it ends.
  bool bot_games_paused(TimePoint now) const { return now < bot_limit_until_; }
  // A 429 naming bot.vsBot.day (to our accept or our challenge): pause bot games as long as
  // lichess says. Any other answer changes nothing.
  void note_bot_limit(const ApiResult& r, TimePoint now);
  // Our account was read (its rating is current as of now).
  void account_read(TimePoint now) { rating_read_at_ = now; }

  // --- the event stream; each returns true when the challenge or game was ours ---
  bool on_canceled(const Challenge& c, TimePoint now);
  bool on_declined(const Challenge& c, TimePoint now);
  // Our challenge was accepted and its game started: the desk holds the slot from here.
  bool on_game_start(const GameInfo& game);

  // --- the main loop ---
  // Cancels our challenge when it was not answered in time or the desk refuses games.
  void follow(TimePoint now);
  // Seeks when the bot has been idle long enough: `desk_busy` when challenges wait or are
  // being accepted. Running games count as busy unless matchmaking.during_games lets a bot
  // game fill a free slot (never one kept for humans, never beyond max_concurrent_games).
  void maybe_seek(TimePoint now, bool desk_busy);

  // Its state for the status page (`now_unix_ms`: the wall clock at `now`).
  MatchmakingView view(TimePoint now, std::int64_t now_unix_ms) const;

 private:
  struct Outgoing {
    std::string id;       // empty while it is being created
    std::string user_id;  // empty while the opponent is being chosen
    std::string username;
    TimePoint sent_at;
    std::string clock;  // "180+2", for the log
  };

  void seek();  // on the worker
  void forget(TimePoint now);
  bool matches(const std::string& id, const std::string& user_id) const;
  void refresh_rating();  // on the worker, without the lock

  const ChallengePolicyOptions& policy_;
  const MatchmakingOptions& options_;
  DeskDeps deps_;
  FromDesk desk_;

  std::optional<Outgoing> outgoing_;
  TimePoint idle_since_;
  TimePoint next_seek_;
  TimePoint bot_limit_until_;  // lichess said bot.vsBot.day: no bot games before this
  Millis backoff_{0};          // after a 429 that is not the daily limit
  TimePoint rating_read_at_;
  bool cap_logged_ = false;
};

}  // namespace zh::bot
