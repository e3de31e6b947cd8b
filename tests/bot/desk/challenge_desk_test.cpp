// The challenge desk against a local HTTP server: answers never block the caller, the queue
// hands free slots out in order, and both sides count the same slots: our accepted challenge
// becomes a bot game, and lichess's daily bot-game limit stops seeking and bots' challenges.
#include "bot/desk/challenge_desk.h"

#include <future>

#include "tests/bot/desk/desk_fixture.h"

namespace zh::bot {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;
using test::game_of;
using test::incoming;

class ChallengeDeskTest : public test::DeskFixture {
 protected:
  ChallengeDesk& make_desk() {
    desk_.reset();
    desk_ = std::make_unique<ChallengeDesk>(config_, make_deps());
    Account me{"zhbot", "ZhBot", "BOT", 1500};
    desk_->set_account(me);
    return *desk_;
  }
  void stop_subject() override { desk_.reset(); }

  std::unique_ptr<ChallengeDesk> desk_;
};

TEST_F(ChallengeDeskTest, AnsweringNeverWaitsForTheHttpCall) {
  ChallengeDesk& desk = make_desk();
  {
    std::lock_guard lock(gate_mutex_);
    gate_open_ = false;  // lichess hangs on the accept
  }
  Challenge atomic = incoming("chal0002", "bob", 1500);
  atomic.variant = "atomic";
  auto handled = std::async(std::launch::async, [&] {
    desk.on_challenge(incoming("chal0001", "ann", 1500));
    desk.on_challenge(atomic);
  });
  ASSERT_EQ(handled.wait_for(10s), std::future_status::ready)
      << "the event handler waited for a hanging accept";
  open_gate();
  ASSERT_TRUE(calls_.wait_for("decline:chal0002:variant"));
  ASSERT_TRUE(calls_.wait_for("accept:chal0001"));
}

TEST_F(ChallengeDeskTest, WaitingChallengesGetFreedSlotsInOrderUntilCanceledOrRefused) {
  config_.challenge.max_concurrent_games = 1;
  config_.challenge.queue_size = 2;
  config_.challenge.queue_order = QueueOrder::kRating;
  ChallengeDesk& desk = make_desk();
  bool draining = false;
  desk.decline_later_while("shutting down", [&] { return draining; });
  desk.on_challenge(incoming("first001", "ann", 1500));
  desk.on_challenge(incoming("low00002", "bob", 1400));
  desk.on_challenge(incoming("high0003", "cid", 1900));
  desk.on_challenge(incoming("full0004", "dan", 2000));  // the queue holds two
  ASSERT_TRUE(calls_.wait_for("accept:first001"));
  ASSERT_TRUE(calls_.wait_for("decline:full0004:later"));
  EXPECT_EQ(desk.waiting(), 2);
  // !queue's places, in the queue's order (the higher rating first).
  EXPECT_EQ(desk.place_of("CID"), 1);
  EXPECT_EQ(desk.place_of("bob"), 2);
  EXPECT_EQ(desk.place_of("ann"), 0) << "playing, not waiting";

  desk.tick();  // no slot yet: the pending game holds it
  EXPECT_EQ(desk.waiting(), 2);
  EXPECT_FALSE(desk.on_game_start(game_of("first001", "ann")));  // a human
  desk.tick();
  EXPECT_EQ(desk.waiting(), 2) << "the started game still holds its slot";
  desk.on_game_finish("first001");  // over at once (no session here): the slot is free
  desk.tick();
  ASSERT_TRUE(calls_.wait_for("accept:high0003"));  // the higher rating first
  EXPECT_EQ(desk.waiting(), 1);

  Challenge withdrawn = incoming("low00002", "bob", 1400);
  desk.on_challenge(incoming("late0005", "eve", 1600));  // waits behind the pending game
  desk.on_challenge_canceled(withdrawn);
  EXPECT_EQ(desk.waiting(), 1);
  draining = true;
  desk.tick();  // waiting challenges are refused once the bot drains
  ASSERT_TRUE(calls_.wait_for("decline:late0005:later"));
  EXPECT_NE(metrics_.render().find("zhbot_challenges_declined_total{reason=\"later\"}"),
            std::string::npos);
  EXPECT_EQ(desk.waiting(), 0);
  EXPECT_EQ(calls_.count("accept:low00002"), 0);
  EXPECT_EQ(calls_.count("accept:"), 2);
}

TEST_F(ChallengeDeskTest, AnUnansweredChallengeIsCanceledAndAnAcceptedOneIsABotGame) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 10;
  config_.matchmaking.timeout_s = 20;
  config_.matchmaking.rating_difference = 2000;  // Far too, once Near is left alone
  ChallengeDesk& desk = make_desk();
  clock_.advance(10s);
  desk.tick();
  ASSERT_TRUE(metric_seen("zhbot_matchmaking_total{step=\"challenged\"} 1"));
  clock_.advance(19s);
  desk.tick();
  EXPECT_EQ(calls_.count("cancel:"), 0);
  clock_.advance(1s);
  desk.tick();
  ASSERT_TRUE(calls_.wait_for("cancel:out00001"));

  // The next one is accepted: its game counts against the daily limit.
  create_body_ = R"({"id":"out00002"})";
  clock_.advance(std::chrono::seconds(config_.matchmaking.interval_s));
  desk.tick();
  ASSERT_TRUE(metric_seen("zhbot_matchmaking_total{step=\"challenged\"} 2"));
  EXPECT_TRUE(desk.on_game_start(game_of("out00002", "far")));
  ASSERT_TRUE(metric_seen("zhbot_bot_games_24h 1"));
  EXPECT_EQ(ledger_->bot_games_last_24h(), 1);
}

TEST_F(ChallengeDeskTest, TheDailyBotGameLimitStopsSeekingAndBotAccepts) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 10;
  create_status_ = 429;
  create_body_ = R"({"error":"daily limit","ratelimit":{"key":"bot.vsBot.day","seconds":3600}})";
  ChallengeDesk& desk = make_desk();
  clock_.advance(10s);
  desk.tick();
  ASSERT_TRUE(metric_seen("zhbot_matchmaking_total{step=\"rate_limited\"} 1"));
  clock_.advance(std::chrono::minutes(59));
  desk.tick();
  EXPECT_NE(metrics_.render().find("zhbot_matchmaking_total{step=\"sought\"} 1\n"),
            std::string::npos)
      << "sought again within lichess's pause";
  // A bot's challenge meanwhile is declined (a human's is not).
  desk.on_challenge(incoming("robo0001", "robo", 1500, true));
  ASSERT_TRUE(calls_.wait_for("decline:robo0001:later"));
  desk.on_challenge(incoming("human001", "ann", 1500));
  ASSERT_TRUE(calls_.wait_for("accept:human001"));
  clock_.advance(std::chrono::minutes(1));
  EXPECT_FALSE(desk.on_game_start(game_of("human001", "ann")));
  desk.on_game_finish("human001");
  desk.tick();  // the pause is over
  ASSERT_TRUE(metric_seen("zhbot_matchmaking_total{step=\"sought\"} 2"));
}

}  // namespace
}  // namespace zh::bot
