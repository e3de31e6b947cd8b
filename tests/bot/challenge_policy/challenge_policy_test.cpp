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

void expect_wait(const Challenge& c, const ChallengePolicyOptions& o, const DaemonLoad& load) {
  const ChallengeDecision d = decide_challenge(c, o, load);
  EXPECT_EQ(d.kind, ChallengeDecision::Kind::kWait) << d.why;
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

TEST(ChallengePolicy, ARefusalSaysLater) {
  DaemonLoad load = idle();
  load.refusal = "shutting down";
  expect_decline(blitz_challenge(), defaults(), load, DeclineReason::kLater);
  EXPECT_EQ(decide_challenge(blitz_challenge(), defaults(), load).why, "shutting down");
}

TEST(ChallengePolicy, EveryVariantButCrazyhouseIsDeclinedWhateverTheConfigSays) {
  Challenge c = blitz_challenge();
  c.variant = "standard";
  expect_decline(c, defaults(), idle(), DeclineReason::kVariant);
  c.variant = "atomic";
  expect_decline(c, defaults(), idle(), DeclineReason::kVariant);
  // A config that lists other variants (check-config refuses it; a hand-made one may not have
  // been checked) still gets lichess's `variant` reason: the game would never be played.
  ChallengePolicyOptions only_standard = defaults();
  only_standard.variants = {"standard"};
  expect_decline(c, only_standard, idle(), DeclineReason::kVariant);
  c.variant = "standard";
  expect_decline(c, only_standard, idle(), DeclineReason::kVariant);
  ChallengePolicyOptions both = defaults();
  both.variants = {"crazyhouse", "atomic"};
  c.variant = "atomic";
  expect_decline(c, both, idle(), DeclineReason::kVariant);
  c.variant = "crazyhouse";
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

TEST(ChallengePolicy, CorrespondenceAndUnlimitedAreAlwaysTooSlow) {
  Challenge c = blitz_challenge();
  c.speed = "correspondence";
  c.time_control = {"correspondence", 0, 0, 3};
  expect_decline(c, defaults(), idle(), DeclineReason::kTooSlow);
  c.time_control = {"unlimited", 0, 0, 0};
  expect_decline(c, defaults(), idle(), DeclineReason::kTooSlow);
  // Even a hand-made options object that lists the speed (check-config refuses it).
  ChallengePolicyOptions o = defaults();
  o.speeds.push_back("correspondence");
  expect_decline(c, o, idle(), DeclineReason::kTooSlow);
}

TEST(ChallengePolicy, RatingWindowAroundOurOwnRating) {
  ChallengePolicyOptions o = defaults();
  o.rating_difference = 200;
  DaemonLoad load = idle();
  load.my_rating = 1800;
  Challenge c = blitz_challenge();
  c.challenger.rating = 1600;  // bounds are inclusive
  EXPECT_TRUE(decide_challenge(c, o, load).accepted());
  c.challenger.rating = 1599;
  expect_decline(c, o, load, DeclineReason::kGeneric);
  c.challenger.rating = 2001;
  expect_decline(c, o, load, DeclineReason::kGeneric);
  load.my_rating.reset();  // our rating unknown: no window
  EXPECT_TRUE(decide_challenge(c, o, load).accepted());
  o.rating_difference = 0;  // off
  load.my_rating = 1800;
  EXPECT_TRUE(decide_challenge(c, o, load).accepted());
}

TEST(ChallengePolicy, BulletWithoutIncrementFromABotWhenRequired) {
  ChallengePolicyOptions o = defaults();
  o.bot_bullet_requires_increment = true;
  Challenge c = blitz_challenge();
  c.speed = "bullet";
  c.time_control = {"clock", 60, 0, 0};
  EXPECT_TRUE(decide_challenge(c, o, idle()).accepted());  // humans may
  c.challenger.title = "BOT";
  expect_decline(c, o, idle(), DeclineReason::kTimeControl);
  c.time_control.increment_s = 1;
  EXPECT_TRUE(decide_challenge(c, o, idle()).accepted());
  c.time_control.increment_s = 0;
  o.bot_bullet_requires_increment = false;
  EXPECT_TRUE(decide_challenge(c, o, idle()).accepted());
}

TEST(ChallengePolicy, RecentChallengesFromOneBotSayLater) {
  ChallengePolicyOptions o = defaults();
  o.max_recent_bot_challenges = 3;
  Challenge bot = blitz_challenge();
  bot.challenger.title = "BOT";
  DaemonLoad load = idle();
  load.recent_from_challenger = 3;  // this one included
  EXPECT_TRUE(decide_challenge(bot, o, load).accepted());
  load.recent_from_challenger = 4;
  expect_decline(bot, o, load, DeclineReason::kLater);
  EXPECT_TRUE(decide_challenge(blitz_challenge(), o, load).accepted());  // humans: no throttle
  o.max_recent_bot_challenges = 0;                                       // off
  EXPECT_TRUE(decide_challenge(bot, o, load).accepted());
}

TEST(ChallengePolicy, SlotsReservedForHumansMakeBotsWait) {
  ChallengePolicyOptions o = defaults();
  o.max_concurrent_games = 3;
  o.games_reserved_for_humans = 1;
  Challenge bot = blitz_challenge();
  bot.challenger.title = "BOT";
  DaemonLoad load = idle();
  load.active_games = 2;
  load.active_bot_games = 1;
  EXPECT_TRUE(decide_challenge(bot, o, load).accepted());
  load.active_bot_games = 2;
  expect_wait(bot, o, load);
  EXPECT_TRUE(decide_challenge(blitz_challenge(), o, load).accepted());  // the human slot
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

TEST(ChallengePolicy, FullSlotsWaitPerOpponentAndDailyBotCapSayLater) {
  ChallengePolicyOptions o = defaults();
  DaemonLoad load = idle();
  load.active_games = 1;
  EXPECT_TRUE(decide_challenge(blitz_challenge(), o, load).accepted());
  load.active_games = 2;
  expect_wait(blitz_challenge(), o, load);  // the desk queues it or says later

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

TEST(ChallengePolicy, LastingReasonsComeBeforeARefusal) {
  // While the bot refuses new games (draining, a failing device), `later` is only for a
  // challenge that would pass once the refusal ends.
  DaemonLoad refusing = idle();
  refusing.refusal = "shutting down";
  ChallengePolicyOptions o = defaults();
  o.block_list = {"alice"};
  expect_decline(blitz_challenge(), o, refusing, DeclineReason::kGeneric);
  Challenge c = blitz_challenge();
  c.variant = "atomic";
  expect_decline(c, defaults(), refusing, DeclineReason::kVariant);
  c = blitz_challenge();
  c.time_control = {"clock", 15, 0, 0};
  c.speed = "ultraBullet";
  expect_decline(c, defaults(), refusing, DeclineReason::kTooFast);
  c = blitz_challenge();
  c.challenger.title = "BOT";
  o = defaults();
  o.accept_bots = false;
  expect_decline(c, o, refusing, DeclineReason::kNoBot);
  expect_decline(blitz_challenge(), defaults(), refusing, DeclineReason::kLater);
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
