#include "bot/desk/challenge_queue.h"

#include <gtest/gtest.h>

#include "bot/desk/recent_challenges.h"

namespace zh::bot {
namespace {

Challenge from(const std::string& id, const std::string& user, std::optional<int> rating,
               bool bot = false) {
  Challenge c;
  c.id = id;
  c.challenger.id = user;
  c.challenger.name = user;
  c.challenger.rating = rating;
  if (bot) c.challenger.title = "BOT";
  return c;
}

std::vector<std::string> ids(const ChallengeQueue& q) {
  std::vector<std::string> out;
  for (const auto& e : q.ordered()) out.push_back(e.challenge.id);
  return out;
}

TEST(ChallengeQueue, IsBoundedAndKeepsEachChallengeOnce) {
  ChallengeQueue q(2, QueueOrder::kFirst);
  const TimePoint t{};
  EXPECT_TRUE(q.push(from("a", "ann", 1500), t));
  EXPECT_FALSE(q.push(from("a", "ann", 1500), t));
  EXPECT_TRUE(q.push(from("b", "bob", 1500), t));
  EXPECT_TRUE(q.full());
  EXPECT_FALSE(q.push(from("c", "cid", 1500), t));
  EXPECT_EQ(q.with_challenger("ann"), 1);
  EXPECT_TRUE(q.remove("a"));
  EXPECT_FALSE(q.remove("a"));
  EXPECT_EQ(ids(q), (std::vector<std::string>{"b"}));
  ChallengeQueue none(0, QueueOrder::kFirst);  // queue_size 0: nothing waits
  EXPECT_FALSE(none.push(from("a", "ann", 1500), t));
}

TEST(ChallengeQueue, HandsOutInTheConfiguredOrder) {
  const TimePoint t{};
  for (auto order : {QueueOrder::kFirst, QueueOrder::kRating, QueueOrder::kHumansFirst}) {
    ChallengeQueue q(10, order);
    q.push(from("bot1", "robo", 2000, true), t);
    q.push(from("low", "ann", 1200), t);
    q.push(from("unrated", "cid", std::nullopt), t);
    q.push(from("high", "bob", 1900), t);
    std::vector<std::string> want;
    if (order == QueueOrder::kFirst) want = {"bot1", "low", "unrated", "high"};
    if (order == QueueOrder::kRating) want = {"bot1", "high", "low", "unrated"};
    if (order == QueueOrder::kHumansFirst) want = {"low", "unrated", "high", "bot1"};
    EXPECT_EQ(ids(q), want);
  }
}

TEST(RecentChallenges, CountsWithinTheWindowOnly) {
  RecentChallenges recent(Millis(1000));
  const TimePoint t0{std::chrono::hours(1)};
  recent.add("robo", t0);
  recent.add("robo", t0 + Millis(500));
  recent.add("other", t0 + Millis(500));
  EXPECT_EQ(recent.count("robo", t0 + Millis(1000)), 2);
  EXPECT_EQ(recent.count("robo", t0 + Millis(1001)), 1);
  EXPECT_EQ(recent.count("robo", t0 + Millis(1501)), 0);
  EXPECT_EQ(recent.count("nobody", t0), 0);
}

}  // namespace
}  // namespace zh::bot
