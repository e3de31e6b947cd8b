// The outgoing side of the desk alone, against a local HTTP server on a fake clock: it seeks
// only when idle, challenges a bot that fits, remembers who declined and for how long, cancels
// what is not answered or what a refusal overtakes, and backs off when lichess rate-limits it.
#include "bot/desk/seeker.h"

#include <set>

#include "tests/bot/desk/desk_fixture.h"

namespace zh::bot {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

class SeekerTest : public test::DeskFixture {
 protected:
  Seeker& make_seeker() {
    stop_subject();
    worker_ = std::make_unique<DeskWorker>();
    seeker_ = std::make_unique<Seeker>(
        config_, make_deps(),
        Seeker::FromDesk{&mutex_, worker_.get(), &account_, [this] { return refusal_; }});
    return *seeker_;
  }
  void stop_subject() override {
    if (worker_) worker_->stop();  // its jobs use the seeker
    seeker_.reset();
    worker_.reset();
  }
  // What the desk does a few times a second, with nothing of its own waiting.
  void tick() {
    std::lock_guard lock(mutex_);
    seeker_->follow(clock_.now());
    seeker_->maybe_seek(clock_.now(), false);
  }
  // Idle for `idle`: Near (the one online bot in the rating window) is challenged.
  bool challenges_near_after(std::chrono::seconds idle) {
    clock_.advance(idle);
    tick();
    return calls_.wait_for("create:Near") &&
           metric_seen("zhbot_matchmaking_total{step=\"challenged\"} 1");
  }
  // Near declines our challenge out00001 with lichess's `reason`.
  void near_declines(const std::string& reason) {
    Challenge declined;
    declined.id = "out00001";
    declined.challenger.id = "zhbot";
    declined.dest_user = ChallengeUser{"near", "Near", 1550, "BOT"};
    declined.decline_reason_key = reason;
    std::lock_guard lock(mutex_);
    EXPECT_TRUE(seeker_->on_declined(declined, clock_.now()));
  }
  int metric(const std::string& step) {
    const std::string text = metrics_.render();
    const std::string key = "zhbot_matchmaking_total{step=\"" + step + "\"} ";
    const auto at = text.find(key);
    return at == std::string::npos ? 0 : std::stoi(text.substr(at + key.size()));
  }

  std::mutex mutex_;  // the desk's lock, here the test's
  Account account_{"zhbot", "ZhBot", "BOT", 1500};
  std::string refusal_;  // guarded by mutex_
  std::unique_ptr<DeskWorker> worker_;
  std::unique_ptr<Seeker> seeker_;
};

TEST_F(SeekerTest, MatchmakingChallengesAnIdleBotsPeerAndRemembersItsDecline) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 60;
  config_.matchmaking.interval_s = 30;
  config_.matchmaking.rating_difference = 300;
  make_seeker();
  tick();
  clock_.advance(59s);
  tick();
  EXPECT_EQ(calls_.count("online"), 0) << "sought before the idle time";
  clock_.advance(1s);
  tick();
  ASSERT_TRUE(calls_.wait_for("create:Near"));  // Far is out of the rating window
  ASSERT_TRUE(metric_seen("zhbot_matchmaking_total{step=\"challenged\"} 1"));
  // Which clock and mode it chose (the first configured clock; casual, the default mode).
  EXPECT_TRUE(metric_seen("zhbot_matchmaking_challenges_total{clock=\"" +
                          std::to_string(config_.matchmaking.clocks[0].limit_s) + "+" +
                          std::to_string(config_.matchmaking.clocks[0].increment_s) +
                          "\",mode=\"casual\"} 1"));

  near_declines("timecontrol");
  clock_.advance(30s);
  tick();
  ASSERT_TRUE(metric_seen("zhbot_matchmaking_total{step=\"no_candidate\"} 1"));
  EXPECT_EQ(calls_.count("create:"), 1) << "asked a bot that declined";
  // Remembered in the state file for the next start.
  GameLedger reread{StateFile(dir_), clock_};
  reread.restore();
  EXPECT_EQ(reread.declined("near"), "timecontrol");
}

TEST_F(SeekerTest, ALastingDeclineListsTheBotForeverWhenAskedTo) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 10;
  config_.matchmaking.decliners_forever = true;
  make_seeker();
  ASSERT_TRUE(challenges_near_after(10s));
  near_declines("nobot");
  EXPECT_EQ(ledger_->decliners().ids(), std::set<std::string>{"near"});
  EXPECT_TRUE(fs::exists(dir_ / "decliners.txt"));
}

TEST_F(SeekerTest, ALaterDeclineIsNeverListedForever) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 10;
  config_.matchmaking.decliners_forever = true;
  make_seeker();
  ASSERT_TRUE(challenges_near_after(10s));
  near_declines("later");
  EXPECT_TRUE(ledger_->decliners().ids().empty());
  EXPECT_EQ(ledger_->declined("near"), "later");
}

TEST_F(SeekerTest, RunningGamesKeepTheBotFromSeekingUnlessAskedTo) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 10;
  make_seeker();
  running_game("game0001", "ann", false);
  clock_.advance(60s);
  tick();
  EXPECT_FALSE(sought()) << "sought while a game runs, seek_during_games being off";
}

TEST_F(SeekerTest, SeekingDuringGamesFillsAFreeSlotABotMayTake) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 10;
  config_.matchmaking.during_games = true;
  config_.challenge.max_concurrent_games = 2;
  make_seeker();
  running_game("game0001", "ann", false);
  clock_.advance(10s);
  tick();
  EXPECT_TRUE(sought());
  ASSERT_TRUE(calls_.wait_for("create:Near"));
}

TEST_F(SeekerTest, SeekingDuringGamesNeverTakesASlotKeptForHumansOrBeyondTheLimit) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 10;
  config_.matchmaking.during_games = true;
  config_.challenge.max_concurrent_games = 3;
  config_.challenge.games_reserved_for_humans = 2;  // bots may hold one slot
  make_seeker();
  running_game("game0001", "robo", true);
  clock_.advance(60s);
  tick();
  EXPECT_FALSE(sought()) << "a bot game took a slot kept for humans";
  config_.challenge.games_reserved_for_humans = 0;
  make_seeker();
  running_game("game0002", "ann", false);
  running_game("game0003", "bea", false);
  clock_.advance(60s);
  tick();
  EXPECT_FALSE(sought()) << "sought with every slot taken";
}

TEST_F(SeekerTest, TheLedgersCountStopsSeekingBeforeLichessMust) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 10;
  config_.challenge.max_bot_games_per_day = 1;
  make_seeker();
  ledger_->record_bot_game();
  clock_.advance(10s);
  tick();
  EXPECT_EQ(metrics_.render().find("step=\"sought\""), std::string::npos);
  EXPECT_NE(metrics_.render().find("zhbot_bot_games_24h 1"), std::string::npos);
}

TEST_F(SeekerTest, ARefusalCancelsOurChallengeAndStopsSeeking) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 10;
  config_.matchmaking.interval_s = 10;
  make_seeker();
  ASSERT_TRUE(challenges_near_after(10s));
  {
    std::lock_guard lock(mutex_);
    EXPECT_TRUE(seeker_->active()) << "our challenge holds no slot";
  }
  {
    std::lock_guard lock(mutex_);  // the seeker reads it under the desk's lock
    refusal_ = "draining";
  }
  tick();
  ASSERT_TRUE(calls_.wait_for("cancel:out00001"));
  clock_.advance(60s);
  tick();
  EXPECT_EQ(metric("sought"), 1) << "sought while the desk refuses games";
  std::lock_guard lock(mutex_);
  EXPECT_FALSE(seeker_->active());
}

TEST_F(SeekerTest, ARateLimitThatIsNotTheDailyLimitBacksOffFromAMinuteDoubling) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 10;
  config_.matchmaking.interval_s = 10;
  create_status_ = 429;
  create_body_ = R"({"error":"Too many requests. Try again later."})";
  make_seeker();
  clock_.advance(10s);
  tick();
  ASSERT_TRUE(metric_seen("zhbot_matchmaking_total{step=\"rate_limited\"} 1"));
  clock_.advance(59s);
  tick();
  EXPECT_EQ(metric("sought"), 1) << "sought again within the first pause (60 s)";
  clock_.advance(1s);
  tick();
  EXPECT_EQ(metric("sought"), 2);
  ASSERT_TRUE(metric_seen("zhbot_matchmaking_total{step=\"rate_limited\"} 2"));
  clock_.advance(119s);
  tick();
  EXPECT_EQ(metric("sought"), 2) << "the second pause is not twice the first";
  clock_.advance(1s);
  tick();
  EXPECT_EQ(metric("sought"), 3);
  // Not a bot-game pause: lichess's daily limit was not named.
  std::lock_guard lock(mutex_);
  EXPECT_FALSE(seeker_->bot_games_paused(clock_.now()));
}

}  // namespace
}  // namespace zh::bot
