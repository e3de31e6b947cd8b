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

TEST(DrawOfferWatch, OffersAfterALevelStreakFromItsMoveOnToBotsAndOnceAStreak) {
  BotConfig config = BotConfig::defaults();
  DrawOfferWatch off(config);
  for (int i = 0; i < 30; ++i) EXPECT_FALSE(off.should_offer(60 + i, 0.0f, std::nullopt, true));
  config.offer_draws = true;
  config.offer_draw_moves = 3;
  config.offer_draw_min_moves = 40;
  DrawOfferWatch on(config);
  EXPECT_FALSE(on.should_offer(37, 0.0f, std::nullopt, true));
  EXPECT_FALSE(on.should_offer(38, 0.02f, std::nullopt, true));
  EXPECT_FALSE(on.should_offer(39, -0.04f, std::nullopt, true));  // level 3 times, before move 40
  EXPECT_FALSE(on.should_offer(41, 0.3f, std::nullopt, true));    // not level: the streak ends
  EXPECT_FALSE(on.should_offer(42, 0.0f, std::nullopt, true));
  EXPECT_FALSE(on.should_offer(43, 0.0f, 7, true));  // a proven mate is never level
  EXPECT_FALSE(on.should_offer(44, 0.0f, std::nullopt, true));
  EXPECT_FALSE(on.should_offer(45, 0.0f, std::nullopt, true));
  EXPECT_TRUE(on.should_offer(46, 0.0f, std::nullopt, true));
  EXPECT_FALSE(on.should_offer(47, 0.0f, std::nullopt, true));  // the next after 3 more
  EXPECT_FALSE(on.should_offer(48, 0.0f, std::nullopt, true));
  EXPECT_TRUE(on.should_offer(49, 0.0f, std::nullopt, true));

  DrawOfferWatch humans(config);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(humans.should_offer(50 + i, 0.0f, std::nullopt, false));
  config.offer_draws_to_humans = true;
  for (int i = 0; i < 2; ++i) EXPECT_FALSE(humans.should_offer(60 + i, 0.0f, std::nullopt, false));
  EXPECT_TRUE(humans.should_offer(62, 0.0f, std::nullopt, false));
}

}  // namespace
}  // namespace zh::bot
