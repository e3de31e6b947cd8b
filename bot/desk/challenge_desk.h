#pragma once
// The challenge desk: everything about getting games. It answers incoming challenges through
// the policy (accept, decline with lichess's reason, or queue while every slot is taken), gives
// free slots to waiting challenges in the configured order, and, when the bot has been idle,
// challenges an online bot (matchmaking) and follows that challenge until it is answered,
// canceled or timed out.
//
// Threads: the event stream calls the on_* handlers, the daemon's main loop calls tick(); both
// only change state under the desk's lock and hand every HTTP call to the desk's worker thread,
// so a slow or retried request never holds up the event stream.

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bot/config/bot_config.h"
#include "bot/daemon/game_ledger.h"
#include "bot/daemon/seen_ids.h"
#include "bot/daemon/session_table.h"
#include "bot/desk/challenge_queue.h"
#include "bot/desk/desk_worker.h"
#include "bot/desk/recent_challenges.h"
#include "bot/lichess/lichess_client.h"
#include "bot/metrics/metrics.h"

namespace zh::bot {

class ChallengeDesk {
 public:
  struct Deps {
    LichessClient* client = nullptr;
    Clock* clock = nullptr;
    Metrics* metrics = nullptr;
    SessionTable* sessions = nullptr;
    GameLedger* ledger = nullptr;
    RandomSource random;
  };

  ChallengeDesk(const BotConfig& config, Deps deps);
  ~ChallengeDesk();
  ChallengeDesk(const ChallengeDesk&) = delete;
  ChallengeDesk& operator=(const ChallengeDesk&) = delete;

  // Our account (id, crazyhouse rating), once checked.
  void set_account(const Account& account);
  // While `predicate` holds, new challenges are declined with `later` (giving `why` in the log),
  // waiting ones too, and matchmaking does not seek. Draining uses it; so can any health check.
  void decline_later_while(std::string why, std::function<bool()> predicate);

  // --- the event stream ---
  void on_challenge(const Challenge& challenge);
  void on_challenge_canceled(const Challenge& challenge);
  void on_challenge_declined(const Challenge& challenge);
  // A game started: settles the challenge it came from. True when the opponent is a bot (the
  // game is then counted in the ledger). `known` (optional) is set to whether the game came
  // from a challenge the desk handled; a game from before a restart did not.
  bool on_game_start(const GameInfo& game, bool* known = nullptr);
  void on_game_finish(const std::string& game_id);

  // --- the main loop, a few times a second ---
  void tick();

  // Stops the worker; requests not yet sent are dropped (lichess expires what they were for).
  void stop();
  int waiting() const;
  // The place (1 = next) of `user`'s first waiting challenge in the queue's order, by id or
  // name, case-insensitive; 0 when none waits.
  int place_of(const std::string& user) const;

 private:
  // Accepted (or being accepted), or our challenge accepted: the game holds a slot from here
  // until the session table has it.
  struct Pending {
    TimePoint accepted_at;
    std::string challenger_id;
    bool bot = false;
    bool started = false;  // gameStart seen (and a bot game counted)
  };
  struct Outgoing {       // our matchmaking challenge
    std::string id;       // empty while it is being created
    std::string user_id;  // empty while the opponent is being chosen
    std::string username;
    TimePoint sent_at;
    std::string clock;  // "180+2", for the log
  };

  DaemonLoad load_for_locked(const Challenge& c, TimePoint now);
  std::string refusal_locked() const;
  void accept_locked(const Challenge& c, TimePoint now, const char* how);
  void decline_locked(const Challenge& c, DeclineReason reason, const std::string& why);
  void fill_slots_locked(TimePoint now);
  void follow_outgoing_locked(TimePoint now);
  void maybe_seek_locked(TimePoint now);
  void seek();  // on the worker
  void forget_outgoing_locked(TimePoint now);
  void note_bot_limit_locked(const ApiResult& r, TimePoint now);
  bool matches_outgoing_locked(const std::string& id, const std::string& user_id) const;

  const BotConfig& config_;
  const ChallengePolicyOptions& policy_;
  const MatchmakingOptions& seek_;
  Deps deps_;

  mutable std::mutex mutex_;
  Account account_;
  std::vector<std::pair<std::string, std::function<bool()>>> refusals_;
  SeenIds seen_;
  ChallengeQueue queue_;
  std::map<std::string, Pending> pending_;
  RecentChallenges recent_;
  std::optional<Outgoing> outgoing_;
  TimePoint idle_since_;
  TimePoint next_seek_;
  TimePoint bot_limit_until_;  // lichess said bot.vsBot.day: no bot games before this
  Millis seek_backoff_{0};     // after a 429 that is not the daily limit
  TimePoint rating_read_at_;
  bool cap_logged_ = false;

  DeskWorker worker_;  // last: its thread stops before the state it touches goes away
};

}  // namespace zh::bot
