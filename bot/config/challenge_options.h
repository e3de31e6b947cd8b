#pragma once
// The `challenge` section's types: which challenges the operator accepts and how waiting ones
// are queued. Declared with defaults and help in bot/config/bot_config.cpp; read by the
// challenge policy (bot/challenge_policy) and the challenge desk (bot/desk).

#include <string>
#include <vector>

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

}  // namespace zh::bot
