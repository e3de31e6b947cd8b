#pragma once
// Which challenges the bot accepts: a pure function of the challenge, the operator's options
// and the daemon's current load. Every decline names the lichess reason key that tells the
// challenger what to change (a slower clock, a casual game, ...), not just "no". A challenge
// that is acceptable except that every game slot is taken waits (the challenge desk queues it).
//
// Crazyhouse is the one variant the engine plays: every other is declined with `variant`.
//
// Correspondence and unlimited games are always declined with `tooSlow`: zhbot plays real-time
// crazyhouse only (docs/operators.md says why), and check-config refuses `correspondence` in
// `speeds`.

#include <optional>
#include <string>
#include <vector>

#include "bot/config/challenge_options.h"
#include "bot/lichess/events.h"
#include "bot/lichess/lichess_client.h"

namespace zh::bot {

struct DaemonLoad {
  std::string my_id;               // our account id (lowercase)
  std::optional<int> my_rating;    // our crazyhouse rating, when known
  int active_games = 0;            // running, accepted but not yet started, our own challenge
  int active_bot_games = 0;        // of those, against bots
  int games_with_challenger = 0;   // running, accepted or queued with this challenger
  int recent_from_challenger = 0;  // challenges from this bot in the recent window, this one too
  int bot_games_last_24h = 0;
  std::string refusal;  // non-empty: new challenges are declined with `later` for this reason
};

struct ChallengeDecision {
  enum class Kind { kAccept, kDecline, kIgnore, kWait };  // kWait: acceptable, no free slot
  Kind kind = Kind::kDecline;
  DeclineReason reason = DeclineReason::kGeneric;
  std::string why;  // for the log

  bool accepted() const { return kind == Kind::kAccept; }
};

// Ignore: our own outgoing challenges and challenges no longer open. Otherwise the first
// failing check declines with its reason; a refusal (DaemonLoad::refusal) and the capacity
// checks come last, so a challenger who could never be accepted learns the lasting reason
// rather than "later" (or waits in vain).
ChallengeDecision decide_challenge(const Challenge& challenge,
                                   const ChallengePolicyOptions& options, const DaemonLoad& load);

// Speed categories in order, slowest last; -1 for an unknown name.
int speed_rank(const std::string& speed);

}  // namespace zh::bot
