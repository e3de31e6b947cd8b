#pragma once
// The `matchmaking` options: when the bot is idle, challenge an online bot that plays
// crazyhouse. Declared in bot/config/bot_config.cpp, where the defaults live.

#include <string>
#include <vector>

namespace zh::bot {

struct SeekClock {
  int limit_s = 0;
  int increment_s = 0;
  bool operator==(const SeekClock&) const = default;
};

// Which of the fitting bots to prefer.
enum class RatingPreference {
  kNone,    // any, at random
  kHigher,  // those rated above us, when there are any
  kLower,   // those rated below us, when there are any
};

// Rated or casual challenges, or a coin toss for each.
enum class SeekMode { kCasual, kRated, kRandom };

struct MatchmakingOptions {
  bool enabled;
  int idle_s;                              // idle this long before seeking
  bool during_games;                       // running games do not count as busy while a
                                           // bot game has a free slot
  std::vector<std::string> time_controls;  // "<base s>+<increment s>", as configured
  std::vector<SeekClock> clocks;           // the same, parsed and checked (bot_config.cpp)
  SeekMode mode;
  int rating_difference;  // the opponent's crazyhouse rating within this of ours
  int min_rating;         // ... and within [min_rating, max_rating]
  int max_rating;
  RatingPreference preference;
  int interval_s;                       // at least this long between two of our challenges
  int timeout_s;                        // an unanswered challenge is canceled after this long
  std::vector<std::string> block_list;  // bots never challenged
  bool decliners_forever;  // a lasting decline lists the bot in decliners.txt: never again
};

// "180+2" -> {180, 2}. False (and why) for anything else, or a clock lichess would refuse for
// a bot game (base 15..10800 s on lichess's steps, increment 0..60 s, not UltraBullet).
bool parse_seek_clock(const std::string& text, SeekClock& out, std::string& why);

}  // namespace zh::bot
