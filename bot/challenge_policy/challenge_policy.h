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

#include "bot/lichess/events.h"
#include "bot/lichess/lichess_client.h"

namespace zh::bot {

inline constexpr const char* kPlayedVariant = "crazyhouse";

// In which order waiting challenges get a free slot.
enum class QueueOrder {
  kFirst,        // first come, first served
  kRating,       // highest challenger rating first (unknown ratings last)
  kHumansFirst,  // humans before bots, each first come, first served
};

// Filled from the `challenge` options (bot/config/bot_config.cpp), where the defaults live.
struct ChallengePolicyOptions {
  std::vector<std::string> variants;  // lichess variant keys; only kPlayedVariant passes
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
  // Filters operators of lichess-bot know.
  int rating_difference;  // 0: off; else |challenger - our crazyhouse rating| at most this
  bool bot_bullet_requires_increment;
  int max_recent_bot_challenges;  // 0: off; per bot within recent_bot_challenge_window_s
  int recent_bot_challenge_window_s;
  // The queue of acceptable challenges waiting for a free slot (bot/desk).
  int queue_size;  // 0: no queue, a busy bot declines with `later`
  QueueOrder queue_order;
  int games_reserved_for_humans;  // bots may use max_concurrent_games minus these
};

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
