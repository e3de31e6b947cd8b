#pragma once
// The challenge desk: everything about getting games. Its incoming side answers challenges
// through the policy (accept, decline with lichess's reason, or queue while every slot is
// taken) and gives free slots to waiting challenges in the configured order; its outgoing side,
// the Seeker (bot/desk/seeker.h), challenges an online bot when the bot has been idle. Both
// count the same slots: an accepted challenge holds one until its game runs, our own challenge
// one until it is answered.
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
#include "bot/desk/challenge_queue.h"
#include "bot/desk/desk_deps.h"
#include "bot/desk/desk_worker.h"
#include "bot/desk/recent_challenges.h"
#include "bot/desk/seeker.h"
#include "bot/ledger/seen_ids.h"
#include "bot/lichess/lichess_client.h"
#include "bot/metrics/metrics.h"

namespace zh::bot {

class ChallengeDesk {
 public:
  using Deps = DeskDeps;

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
  DaemonLoad load_for_locked(const Challenge& c, TimePoint now);
  std::string refusal_locked() const;
  void accept_locked(const Challenge& c, TimePoint now, const char* how);
  void decline_locked(const Challenge& c, DeclineReason reason, const std::string& why);
  void fill_slots_locked(TimePoint now);

  const ChallengePolicyOptions& policy_;
  Deps deps_;

  mutable std::mutex mutex_;
  Account account_;
  std::vector<std::pair<std::string, std::function<bool()>>> refusals_;
  SeenIds seen_;
  ChallengeQueue queue_;
  std::map<std::string, Pending> pending_;
  RecentChallenges recent_;
  Seeker seeker_;  // the outgoing side, under the same lock

  DeskWorker worker_;  // last: its thread stops before the state it touches goes away
};

}  // namespace zh::bot
