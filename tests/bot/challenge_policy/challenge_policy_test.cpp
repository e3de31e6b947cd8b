#include "bot/challenge_policy/challenge_policy.h"

#include <gtest/gtest.h>

#include <string>

#include "bot/config/bot_config.h"

namespace zh::bot {
namespace {

Challenge blitz_challenge() {
  Challenge c;
  c.id = "abcdefgh";
  c.status = "created";
  c.challenger.id = "alice";
  c.challenger.name = "Alice";
  c.challenger.rating = 1500;
  c.variant = "crazyhouse";
  c.rated = true;
  c.speed = "blitz";
  c.time_control = {"clock", 180, 2, 0};
  c.compat_bot = true;
  return c;
}

// The policy as an empty config file sets it.
ChallengePolicyOptions defaults() { return BotConfig::defaults().challenge; }

DaemonLoad idle() {
  DaemonLoad load;
  load.my_id = "zhbot";
  return load;
}

void expect_decline(const Challenge& c, const ChallengePolicyOptions& o, const DaemonLoad& load,
                    DeclineReason reason) {
  const ChallengeDecision d = decide_challenge(c, o, load);
  EXPECT_EQ(d.kind, ChallengeDecision::Kind::kDecline) << d.why;
  EXPECT_EQ(to_string(d.reason), to_string(reason)) << d.why;
}

TEST(ChallengePolicy, AcceptsTheDefaultCase) {
  EXPECT_TRUE(decide_challenge(blitz_challenge(), defaults(), idle()).accepted());
}

TEST(ChallengePolicy, IgnoresOurOwnAndClosedChallenges) {
  Challenge c = blitz_challenge();
  c.challenger.id = "ZhBot";
  EXPECT_EQ(decide_challenge(c, defaults(), idle()).kind, ChallengeDecision::Kind::kIgnore);
  c = blitz_challenge();
  c.status = "canceled";
  EXPECT_EQ(decide_challenge(c, defaults(), idle()).kind, ChallengeDecision::Kind::kIgnore);
}

TEST(ChallengePolicy, ShuttingDownSaysLater) {
  DaemonLoad load = idle();
  load.shutting_down = true;
  expect_decline(blitz_challenge(), defaults(), load, DeclineReason::kLater);
}

TEST(ChallengePolicy, AFailingEvaluatorDeviceSaysLater) {
  DaemonLoad load = idle();
  load.evaluator_down = true;
  expect_decline(blitz_challenge(), defaults(), load, DeclineReason::kLater);
}

TEST(ChallengePolicy, Variants) {
  Challenge c = blitz_challenge();
  c.variant = "standard";
  expect_decline(c, defaults(), idle(), DeclineReason::kVariant);
  c.variant = "atomic";
  expect_decline(c, defaults(), idle(), DeclineReason::kVariant);
  ChallengePolicyOptions only_standard = defaults();
  only_standard.variants = {"standard"};
  expect_decline(c, only_standard, idle(), DeclineReason::kStandard);
  ChallengePolicyOptions both = defaults();
  both.variants = {"crazyhouse", "atomic"};
  EXPECT_TRUE(decide_challenge(c, both, idle()).accepted());
}

TEST(ChallengePolicy, SpeedCategories) {
  Challenge c = blitz_challenge();
  ChallengePolicyOptions o = defaults();
  o.speeds = {"rapid", "classical"};
  expect_decline(c, o, idle(), DeclineReason::kTooFast);
  o.speeds = {"bullet"};
  expect_decline(c, o, idle(), DeclineReason::kTooSlow);
  o.speeds = {"bullet", "classical"};
  expect_decline(c, o, idle(), DeclineReason::kTimeControl);
  o.speeds = {"blitz"};
  EXPECT_TRUE(decide_challenge(c, o, idle()).accepted());
}

TEST(ChallengePolicy, CorrespondenceAndUnlimitedAreDeclinedByDefault) {
  Challenge c = blitz_challenge();
  c.speed = "correspondence";
  c.time_control = {"correspondence", 0, 0, 3};
  expect_decline(c, defaults(), idle(), DeclineReason::kTimeControl);
  c.time_control = {"unlimited", 0, 0, 0};
  expect_decline(c, defaults(), idle(), DeclineReason::kTimeControl);
  ChallengePolicyOptions o = defaults();
  o.speeds.push_back("correspondence");
  EXPECT_TRUE(decide_challenge(c, o, idle()).accepted());
}

TEST(ChallengePolicy, UltraBulletIsTooFast) {
  Challenge c = blitz_challenge();
  c.speed = "ultraBullet";
  c.time_control = {"clock", 15, 0, 0};
  expect_decline(c, defaults(), idle(), DeclineReason::kTooFast);
  c.compat_bot = false;  // as the server marks it
  expect_decline(c, defaults(), idle(), DeclineReason::kTooFast);
}

TEST(ChallengePolicy, NotBotCompatibleIsGeneric) {
  Challenge c = blitz_challenge();
  c.compat_bot = false;
  expect_decline(c, defaults(), idle(), DeclineReason::kGeneric);
}

TEST(ChallengePolicy, BaseAndIncrementBounds) {
  ChallengePolicyOptions o = defaults();
  o.min_base_s = 60;
  o.max_base_s = 600;
  o.min_increment_s = 1;
  o.max_increment_s = 5;
  Challenge c = blitz_challenge();
  EXPECT_TRUE(decide_challenge(c, o, idle()).accepted());
  c.time_control.limit_s = 30;
  expect_decline(c, o, idle(), DeclineReason::kTooFast);
  c.time_control.limit_s = 900;
  expect_decline(c, o, idle(), DeclineReason::kTooSlow);
  c.time_control.limit_s = 60;  // bounds are inclusive
  c.time_control.increment_s = 0;
  expect_decline(c, o, idle(), DeclineReason::kTooFast);
  c.time_control.increment_s = 6;
  expect_decline(c, o, idle(), DeclineReason::kTooSlow);
  c.time_control.increment_s = 5;
  c.time_control.limit_s = 600;
  EXPECT_TRUE(decide_challenge(c, o, idle()).accepted());
}

TEST(ChallengePolicy, RatedAndCasual) {
  ChallengePolicyOptions casual_only = defaults();
  casual_only.accept_rated = false;
  Challenge c = blitz_challenge();
  expect_decline(c, casual_only, idle(), DeclineReason::kCasual);
  c.rated = false;
  EXPECT_TRUE(decide_challenge(c, casual_only, idle()).accepted());
  ChallengePolicyOptions rated_only = defaults();
  rated_only.accept_casual = false;
  expect_decline(c, rated_only, idle(), DeclineReason::kRated);
}

TEST(ChallengePolicy, BotsAndHumans) {
  Challenge bot = blitz_challenge();
  bot.challenger.title = "BOT";
  ChallengePolicyOptions no_bots = defaults();
  no_bots.accept_bots = false;
  expect_decline(bot, no_bots, idle(), DeclineReason::kNoBot);
  EXPECT_TRUE(decide_challenge(blitz_challenge(), no_bots, idle()).accepted());
  ChallengePolicyOptions only_bots = defaults();
  only_bots.only_bots = true;
  expect_decline(blitz_challenge(), only_bots, idle(), DeclineReason::kOnlyBot);
  EXPECT_TRUE(decide_challenge(bot, only_bots, idle()).accepted());
  Challenge gm = blitz_challenge();
  gm.challenger.title = "GM";  // titled humans are humans
  expect_decline(gm, only_bots, idle(), DeclineReason::kOnlyBot);
}

TEST(ChallengePolicy, RatingRange) {
  ChallengePolicyOptions o = defaults();
  o.min_rating = 1400;
  o.max_rating = 1600;
  Challenge c = blitz_challenge();
  EXPECT_TRUE(decide_challenge(c, o, idle()).accepted());
  c.challenger.rating = 1399;
  expect_decline(c, o, idle(), DeclineReason::kGeneric);
  c.challenger.rating = 1601;
  expect_decline(c, o, idle(), DeclineReason::kGeneric);
  c.challenger.rating.reset();  // unknown rating: not held against them
  EXPECT_TRUE(decide_challenge(c, o, idle()).accepted());
}

TEST(ChallengePolicy, BlockAndAllowListsAreCaseInsensitive) {
  ChallengePolicyOptions o = defaults();
  o.block_list = {"ALICE"};
  expect_decline(blitz_challenge(), o, idle(), DeclineReason::kGeneric);
  ChallengePolicyOptions allow = defaults();
  allow.allow_list = {"bob"};
  expect_decline(blitz_challenge(), allow, idle(), DeclineReason::kGeneric);
  allow.allow_list = {"Alice"};
  EXPECT_TRUE(decide_challenge(blitz_challenge(), allow, idle()).accepted());
}

TEST(ChallengePolicy, ConcurrencyPerOpponentAndDailyBotCapSayLater) {
  ChallengePolicyOptions o = defaults();
  DaemonLoad load = idle();
  load.active_games = 1;
  EXPECT_TRUE(decide_challenge(blitz_challenge(), o, load).accepted());
  load.active_games = 2;
  expect_decline(blitz_challenge(), o, load, DeclineReason::kLater);

  load = idle();
  load.games_with_challenger = 1;
  expect_decline(blitz_challenge(), o, load, DeclineReason::kLater);
  o.max_games_per_opponent = 2;
  EXPECT_TRUE(decide_challenge(blitz_challenge(), o, load).accepted());

  load = idle();
  load.bot_games_last_24h = 100;
  EXPECT_TRUE(decide_challenge(blitz_challenge(), o, load).accepted());  // humans: no cap
  Challenge bot = blitz_challenge();
  bot.challenger.title = "BOT";
  expect_decline(bot, o, load, DeclineReason::kLater);
  load.bot_games_last_24h = 99;
  EXPECT_TRUE(decide_challenge(bot, o, load).accepted());
}

TEST(ChallengePolicy, LastingReasonsWinOverLater) {
  DaemonLoad busy = idle();
  busy.active_games = 5;
  Challenge c = blitz_challenge();
  c.variant = "standard";
  expect_decline(c, defaults(), busy, DeclineReason::kVariant);
}

TEST(ChallengePolicy, SpeedRankOrder) {
  EXPECT_LT(speed_rank("ultraBullet"), speed_rank("bullet"));
  EXPECT_LT(speed_rank("bullet"), speed_rank("blitz"));
  EXPECT_LT(speed_rank("rapid"), speed_rank("classical"));
  EXPECT_LT(speed_rank("classical"), speed_rank("correspondence"));
  EXPECT_EQ(speed_rank("warp"), -1);
}

}  // namespace
}  // namespace zh::bot
