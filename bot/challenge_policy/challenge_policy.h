#pragma once
// Which challenges the bot accepts: a pure function of the challenge, the operator's options
// and the daemon's current load. Every decline names the lichess reason key that tells the
// challenger what to change (a slower clock, a casual game, ...), not just "no".

#include <string>
#include <vector>

#include "bot/lichess/events.h"
#include "bot/lichess/lichess_client.h"

namespace zh::bot {

// Filled from the `challenge` options (bot/config/bot_config.cpp), where the defaults live.
struct ChallengePolicyOptions {
  std::vector<std::string> variants;  // lichess variant keys
  // Speed categories accepted: ultraBullet bullet blitz rapid classical correspondence.
  std::vector<std::string> speeds;
  int min_base_s;
  int max_base_s;
  int min_increment_s;
  int max_increment_s;
  bool accept_rated;
  bool accept_casual;
  bool accept_bots;
  bool only_bots;
  int min_rating;
  int max_rating;
  std::vector<std::string> block_list;  // user ids or names, case-insensitive
  std::vector<std::string> allow_list;  // when not empty, only these may challenge
  int max_concurrent_games;
  int max_games_per_opponent;  // simultaneous games against one opponent
  int max_bot_games_per_day;   // lichess's own cap is 100 bot-vs-bot games per 24 h
};

struct DaemonLoad {
  std::string my_id;     // our account id (lowercase)
  int active_games = 0;  // running plus accepted but not yet started
  int games_with_challenger = 0;
  int bot_games_last_24h = 0;
  bool shutting_down = false;
  bool evaluator_down = false;  // the evaluator's device is failing (games on the fallback)
};

struct ChallengeDecision {
  enum class Kind { kAccept, kDecline, kIgnore };
  Kind kind = Kind::kDecline;
  DeclineReason reason = DeclineReason::kGeneric;
  std::string why;  // for the log

  bool accepted() const { return kind == Kind::kAccept; }
};

// Ignore: our own outgoing challenges and challenges no longer open. Otherwise the first
// failing check declines with its reason; capacity checks come last, so a challenger who could
// never be accepted learns the lasting reason rather than "later".
ChallengeDecision decide_challenge(const Challenge& challenge,
                                   const ChallengePolicyOptions& options, const DaemonLoad& load);

// Speed categories in order, slowest last; -1 for an unknown name.
int speed_rank(const std::string& speed);

}  // namespace zh::bot
