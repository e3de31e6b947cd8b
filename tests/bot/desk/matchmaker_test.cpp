#include "bot/desk/matchmaker.h"

#include <gtest/gtest.h>

#include "bot/config/bot_config.h"

namespace zh::bot {
namespace {

OnlineBot online(const std::string& name, std::optional<int> rating, int games = 50) {
  OnlineBot b;
  b.id = name;
  b.username = name;
  b.crazyhouse_rating = rating;
  b.crazyhouse_games = games;
  return b;
}

std::vector<std::string> names(const std::vector<OnlineBot>& bots) {
  std::vector<std::string> out;
  for (const auto& b : bots) out.push_back(b.username);
  return out;
}

TEST(Matchmaker, CandidatesPlayCrazyhouseWithinTheWindowAndAreNotExcluded) {
  MatchmakingOptions o = BotConfig::defaults().matchmaking;
  o.rating_difference = 200;
  o.block_list = {"Blocked"};
  SeekContext ctx;
  ctx.my_id = "zhbot";
  ctx.my_rating = 1700;
  ctx.excluded = [](const std::string& id) { return id == "decliner"; };
  const std::vector<OnlineBot> all = {
      online("near", 1800),      online("edge", 1500),  online("far", 1499),
      online("novice", 1700, 0), online("unrated", {}), online("blocked", 1700),
      online("decliner", 1700),  online("zhbot", 1700),
  };
  EXPECT_EQ(names(seek_candidates(all, o, ctx)), (std::vector<std::string>{"near", "edge"}));
  ctx.my_rating.reset();  // no rating of our own yet: centred on 1500
  EXPECT_EQ(names(seek_candidates(all, o, ctx)), (std::vector<std::string>{"edge", "far"}));
}

TEST(Matchmaker, AbsoluteBoundsTheChallengeBlockListAndARatingPreference) {
  MatchmakingOptions o = BotConfig::defaults().matchmaking;
  o.rating_difference = 500;
  o.min_rating = 1400;
  o.max_rating = 1900;
  SeekContext ctx;
  ctx.my_id = "zhbot";
  ctx.my_rating = 1700;
  ctx.challenge_block_list = {"RUDE"};  // blocked for challenges: never sought either
  const std::vector<OnlineBot> all = {online("low", 1350), online("below", 1600),
                                      online("above", 1800), online("high", 1950),
                                      online("rude", 1750)};
  EXPECT_EQ(names(seek_candidates(all, o, ctx)), (std::vector<std::string>{"below", "above"}));
  o.preference = RatingPreference::kHigher;
  EXPECT_EQ(names(seek_candidates(all, o, ctx)), (std::vector<std::string>{"above"}));
  o.preference = RatingPreference::kLower;
  EXPECT_EQ(names(seek_candidates(all, o, ctx)), (std::vector<std::string>{"below"}));
  // A preference narrows the choice, never empties it.
  o.max_rating = 1650;
  o.preference = RatingPreference::kHigher;
  EXPECT_EQ(names(seek_candidates(all, o, ctx)), (std::vector<std::string>{"below"}));
}

TEST(Matchmaker, PicksAcrossTheWholeList) {
  const std::vector<OnlineBot> c = {online("a", 1), online("b", 1), online("c", 1)};
  EXPECT_EQ(pick_opponent(c, 0.0).username, "a");
  EXPECT_EQ(pick_opponent(c, 0.5).username, "b");
  EXPECT_EQ(pick_opponent(c, 0.999).username, "c");
  const std::vector<SeekClock> clocks = {{180, 2}, {300, 3}};
  EXPECT_EQ(pick_clock(clocks, 0.7), (SeekClock{300, 3}));
  EXPECT_FALSE(pick_rated(SeekMode::kCasual, 0.9));
  EXPECT_TRUE(pick_rated(SeekMode::kRated, 0.1));
  EXPECT_FALSE(pick_rated(SeekMode::kRandom, 0.49));
  EXPECT_TRUE(pick_rated(SeekMode::kRandom, 0.5));
}

TEST(Matchmaker, RemembersLastingDeclinesForADayAndLaterForAnHour) {
  EXPECT_EQ(decline_memory("variant"), std::chrono::hours(24));
  EXPECT_EQ(decline_memory("timecontrol"), std::chrono::hours(24));
  EXPECT_EQ(decline_memory("tooFast"), std::chrono::hours(24));
  EXPECT_EQ(decline_memory("generic"), std::chrono::hours(24));
  EXPECT_EQ(decline_memory("later"), std::chrono::hours(1));
}

TEST(SeekClock, ParsesWhatLichessAcceptsForABotGame) {
  SeekClock c;
  std::string why;
  EXPECT_TRUE(parse_seek_clock("180+2", c, why)) << why;
  EXPECT_EQ(c, (SeekClock{180, 2}));
  EXPECT_TRUE(parse_seek_clock("30+0", c, why)) << why;
  EXPECT_TRUE(parse_seek_clock("0+1", c, why)) << why;  // 40 s estimated: bullet
  for (const char* bad :
       {"", "180", "180+", "+2", "3+2x", "100+0", "180+61", "15+0", "0+0", "-60+1", "180 + 2"})
    EXPECT_FALSE(parse_seek_clock(bad, c, why)) << bad;
}

}  // namespace
}  // namespace zh::bot
