#include "bot/game/think_limits.h"

#include <gtest/gtest.h>

namespace zh::bot {
namespace {

GameFull timed_game() {
  GameFull full;
  full.clock_initial_ms = 180000;
  full.clock_increment_ms = 2000;
  return full;
}

GameState clocks(std::int64_t w, std::int64_t b) {
  GameState s;
  s.wtime_ms = w;
  s.btime_ms = b;
  s.winc_ms = 2000;
  s.binc_ms = 2000;
  return s;
}

TEST(ThinkLimits, ServerClocksLessOurPostRoundTrip) {
  const BotConfig config = BotConfig::defaults();
  SearchLimits l = think_limits(timed_game(), clocks(170000, 160000), kWhite, 40.4, true, config);
  EXPECT_EQ(l.wtime, 170000 - 40);  // the server charges us the round trip
  EXPECT_EQ(l.btime, 160000);
  EXPECT_EQ(l.winc, 2000);
  EXPECT_EQ(l.movetime, 0);
  EXPECT_FALSE(l.human_opponent);
  EXPECT_EQ(l.min_think_ms, 0);  // bots get no artificial delay
  l = think_limits(timed_game(), clocks(170000, 20), kBlack, 40, false, config);
  EXPECT_EQ(l.btime, 1);  // never zero or negative
  EXPECT_EQ(l.wtime, 170000);
  EXPECT_TRUE(l.human_opponent);
  EXPECT_EQ(l.min_think_ms, config.human_min_think_ms);
}

TEST(ThinkLimits, TheOpeningIsSampledAgainstHumansOnlyWhenConfigured) {
  BotConfig config = BotConfig::defaults();
  config.human_opening_temperature = true;
  EXPECT_EQ(think_limits(timed_game(), clocks(1000, 1000), kWhite, 0, false, config).sampled_moves,
            kOpeningSampledMoves);
  EXPECT_EQ(think_limits(timed_game(), clocks(1000, 1000), kWhite, 0, true, config).sampled_moves,
            0);  // bots
  config.human_opening_temperature = false;
  EXPECT_EQ(think_limits(timed_game(), clocks(1000, 1000), kWhite, 0, false, config).sampled_moves,
            0);
}

TEST(ThinkLimits, UntimedGamesGetAFixedTimePerMove) {
  const SearchLimits l =
      think_limits(GameFull{}, clocks(0, 0), kWhite, 0, true, BotConfig::defaults());
  EXPECT_FALSE(l.wtime);
  EXPECT_FALSE(l.btime);
  EXPECT_EQ(l.movetime, kUntimedMoveMs);
}

TEST(ResignWatch, ResignsOnlyAfterEnoughLostMovesInARowAndOnlyWhenEnabled) {
  BotConfig config = BotConfig::defaults();
  ResignWatch off(config);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(off.should_resign(10 + 2 * i, -1.0f, -1));
  config.resign = true;
  config.resign_moves = 2;
  ResignWatch on(config);
  EXPECT_FALSE(on.should_resign(0, -1.0f, std::nullopt));  // never before the game starts
  EXPECT_FALSE(on.should_resign(10, -0.99f, std::nullopt));
  EXPECT_FALSE(on.should_resign(12, 0.2f, std::nullopt));  // the streak is broken
  EXPECT_FALSE(on.should_resign(14, 0.0f, -3));            // getting mated counts as lost
  EXPECT_TRUE(on.should_resign(16, -0.98f, std::nullopt));
}

}  // namespace
}  // namespace zh::bot
