// The challenge desk against a local HTTP server: answers never block the caller, the queue
// hands free slots out in order, matchmaking challenges, remembers declines, cancels what is
// not answered and stops at the daily bot-game limit.
#include "bot/desk/challenge_desk.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <condition_variable>
#include <filesystem>
#include <future>
#include <set>

#include "bot/game/game_session.h"
#include "tests/bot/game/fake_engine.h"
#include "tests/bot/support/loopback_client.h"
#include "tests/support/fake_clock.h"

namespace zh::bot {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

// What the server was asked, in order: "accept:ID", "decline:ID:REASON", "cancel:ID",
// "create:USER", "online".
class Recorder {
 public:
  void add(std::string what) {
    std::lock_guard lock(mutex_);
    calls_.push_back(std::move(what));
    cv_.notify_all();
  }
  std::vector<std::string> calls() const {
    std::lock_guard lock(mutex_);
    return calls_;
  }
  int count(const std::string& prefix) const {
    std::lock_guard lock(mutex_);
    int n = 0;
    for (const auto& c : calls_) n += c.rfind(prefix, 0) == 0;
    return n;
  }
  bool wait_for(const std::string& prefix, int times = 1) {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, 10s, [&] {
      int n = 0;
      for (const auto& c : calls_) n += c.rfind(prefix, 0) == 0;
      return n >= times;
    });
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::string> calls_;
};

Challenge incoming(const std::string& id, const std::string& user, int rating, bool bot = false) {
  Challenge c;
  c.id = id;
  c.status = "created";
  c.challenger.id = user;
  c.challenger.name = user;
  c.challenger.rating = rating;
  if (bot) c.challenger.title = "BOT";
  c.variant = "crazyhouse";
  c.speed = "blitz";
  c.time_control = {"clock", 180, 2, 0};
  c.compat_bot = true;
  return c;
}

GameInfo game_of(const std::string& id, const std::string& opponent) {
  GameInfo g;
  g.game_id = id;
  g.opponent.id = opponent;
  g.opponent.username = opponent;
  return g;
}

class ChallengeDeskTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("zhbot-desk-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    config_ = BotConfig::defaults();
    auto& s = server_.server();
    s.Post(R"(/api/challenge/([^/]+)/accept)", [this](const auto& req, auto& res) {
      std::unique_lock lock(gate_mutex_);
      gate_cv_.wait(lock, [&] { return gate_open_; });
      calls_.add("accept:" + std::string(req.matches[1]));
      res.set_content(R"({"ok":true})", "application/json");
    });
    s.Post(R"(/api/challenge/([^/]+)/decline)", [this](const auto& req, auto& res) {
      calls_.add("decline:" + std::string(req.matches[1]) + ":" + req.get_param_value("reason"));
      res.set_content(R"({"ok":true})", "application/json");
    });
    s.Post(R"(/api/challenge/([^/]+)/cancel)", [this](const auto& req, auto& res) {
      calls_.add("cancel:" + std::string(req.matches[1]));
      res.set_content(R"({"ok":true})", "application/json");
    });
    s.Post(R"(/api/challenge/([^/]+))", [this](const auto& req, auto& res) {
      calls_.add("create:" + std::string(req.matches[1]));
      std::lock_guard lock(gate_mutex_);
      res.status = create_status_;
      res.set_content(create_body_, "application/json");
    });
    s.Get("/api/bot/online", [this](const auto&, auto& res) {
      calls_.add("online");
      res.set_content(
          R"({"id":"near","username":"Near","title":"BOT","perfs":{"crazyhouse":{"games":9,"rating":1550}}})"
          "\n"
          R"({"id":"far","username":"Far","title":"BOT","perfs":{"crazyhouse":{"games":9,"rating":2600}}})"
          "\n",
          "application/x-ndjson");
    });
    server_.start();
  }
  void TearDown() override {
    open_gate();
    desk_.reset();
    fs::remove_all(dir_);
  }

  ChallengeDesk& make_desk() {
    client_ = std::make_unique<test::LoopbackClient>(server_, clock_);
    ledger_ = std::make_unique<GameLedger>(StateFile(dir_), clock_);
    ChallengeDesk::Deps deps;
    deps.client = client_->client.get();
    deps.clock = &clock_;
    deps.metrics = &metrics_;
    deps.sessions = &sessions_;
    deps.ledger = ledger_.get();
    deps.random = [] { return 0.0; };
    desk_ = std::make_unique<ChallengeDesk>(config_, std::move(deps));
    Account me{"zhbot", "ZhBot", "BOT", 1500};
    desk_->set_account(me);
    return *desk_;
  }
  // A game in the session table (never started: it only holds its slot).
  void running_game(const std::string& id, const std::string& opponent, bool bot) {
    sessions_.start(id, opponent, bot, [&] {
      GameSession::Deps d;
      d.http = client_->http.get();
      d.client = client_->client.get();
      d.clock = &clock_;
      d.random = [] { return 0.5; };
      d.config = &config_;
      d.my_id = "zhbot";
      d.my_name = "ZhBot";
      return std::make_unique<GameSession>(id, std::move(d), std::make_unique<test::FakeEngine>());
    });
  }
  bool sought() const { return metrics_.render().find("step=\"sought\"") != std::string::npos; }
  void open_gate() {
    std::lock_guard lock(gate_mutex_);
    gate_open_ = true;
    gate_cv_.notify_all();
  }
  bool metric_seen(const std::string& text) {
    for (int i = 0; i < 1000; ++i) {
      if (metrics_.render().find(text) != std::string::npos) return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }

  fs::path dir_;
  BotConfig config_;
  test::TestServer server_;
  zh::test::FakeClock clock_;
  Metrics metrics_;
  SessionTable sessions_;
  Recorder calls_;
  std::mutex gate_mutex_;
  std::condition_variable gate_cv_;
  bool gate_open_ = true;
  int create_status_ = 200;
  std::string create_body_ = R"({"id":"out00001","status":"created"})";
  std::unique_ptr<test::LoopbackClient> client_;
  std::unique_ptr<GameLedger> ledger_;
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
  EXPECT_EQ(desk.waiting(), 0);
  EXPECT_EQ(calls_.count("accept:low00002"), 0);
  EXPECT_EQ(calls_.count("accept:"), 2);
}

TEST_F(ChallengeDeskTest, MatchmakingChallengesAnIdleBotsPeerAndRemembersItsDecline) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 60;
  config_.matchmaking.interval_s = 30;
  config_.matchmaking.rating_difference = 300;
  ChallengeDesk& desk = make_desk();
  desk.tick();
  clock_.advance(59s);
  desk.tick();
  EXPECT_EQ(calls_.count("online"), 0) << "sought before the idle time";
  clock_.advance(1s);
  desk.tick();
  ASSERT_TRUE(calls_.wait_for("create:Near"));  // Far is out of the rating window
  ASSERT_TRUE(metric_seen("zhbot_matchmaking_total{step=\"challenged\"} 1"));

  Challenge declined;
  declined.id = "out00001";
  declined.challenger.id = "zhbot";
  declined.dest_user = ChallengeUser{"near", "Near", 1550, "BOT"};
  declined.decline_reason_key = "timecontrol";
  desk.on_challenge_declined(declined);
  clock_.advance(30s);
  desk.tick();
  ASSERT_TRUE(metric_seen("zhbot_matchmaking_total{step=\"no_candidate\"} 1"));
  EXPECT_EQ(calls_.count("create:"), 1) << "asked a bot that declined";
  // Remembered in the state file for the next start.
  GameLedger reread{StateFile(dir_), clock_};
  reread.restore();
  EXPECT_EQ(reread.declined("near"), "timecontrol");
}

TEST_F(ChallengeDeskTest, ALastingDeclineListsTheBotForeverWhenAskedTo) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 10;
  config_.matchmaking.decliners_forever = true;
  ChallengeDesk& desk = make_desk();
  clock_.advance(10s);
  desk.tick();
  ASSERT_TRUE(calls_.wait_for("create:Near"));
  ASSERT_TRUE(metric_seen("zhbot_matchmaking_total{step=\"challenged\"} 1"));
  Challenge declined;
  declined.id = "out00001";
  declined.challenger.id = "zhbot";
  declined.dest_user = ChallengeUser{"near", "Near", 1550, "BOT"};
  declined.decline_reason_key = "nobot";
  desk.on_challenge_declined(declined);
  EXPECT_EQ(ledger_->decliners().ids(), std::set<std::string>{"near"});
  EXPECT_TRUE(fs::exists(dir_ / "decliners.txt"));
}

TEST_F(ChallengeDeskTest, ALaterDeclineIsNeverListedForever) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 10;
  config_.matchmaking.decliners_forever = true;
  ChallengeDesk& desk = make_desk();
  clock_.advance(10s);
  desk.tick();
  ASSERT_TRUE(calls_.wait_for("create:Near"));
  ASSERT_TRUE(metric_seen("zhbot_matchmaking_total{step=\"challenged\"} 1"));
  Challenge declined;
  declined.id = "out00001";
  declined.challenger.id = "zhbot";
  declined.dest_user = ChallengeUser{"near", "Near", 1550, "BOT"};
  declined.decline_reason_key = "later";
  desk.on_challenge_declined(declined);
  EXPECT_TRUE(ledger_->decliners().ids().empty());
  EXPECT_EQ(ledger_->declined("near"), "later");
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

TEST_F(ChallengeDeskTest, RunningGamesKeepTheBotFromSeekingUnlessAskedTo) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 10;
  ChallengeDesk& desk = make_desk();
  running_game("game0001", "ann", false);
  clock_.advance(60s);
  desk.tick();
  EXPECT_FALSE(sought()) << "sought while a game runs, seek_during_games being off";
}

TEST_F(ChallengeDeskTest, SeekingDuringGamesFillsAFreeSlotABotMayTake) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 10;
  config_.matchmaking.during_games = true;
  config_.challenge.max_concurrent_games = 2;
  ChallengeDesk& desk = make_desk();
  running_game("game0001", "ann", false);
  clock_.advance(10s);
  desk.tick();
  EXPECT_TRUE(sought());
  ASSERT_TRUE(calls_.wait_for("create:Near"));
}

TEST_F(ChallengeDeskTest, SeekingDuringGamesNeverTakesASlotKeptForHumansOrBeyondTheLimit) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 10;
  config_.matchmaking.during_games = true;
  config_.challenge.max_concurrent_games = 3;
  config_.challenge.games_reserved_for_humans = 2;  // bots may hold one slot
  ChallengeDesk& desk = make_desk();
  running_game("game0001", "robo", true);
  clock_.advance(60s);
  desk.tick();
  EXPECT_FALSE(sought()) << "a bot game took a slot kept for humans";
  config_.challenge.games_reserved_for_humans = 0;
  ChallengeDesk& full = make_desk();
  running_game("game0002", "ann", false);
  running_game("game0003", "bea", false);
  clock_.advance(60s);
  full.tick();
  EXPECT_FALSE(sought()) << "sought with every slot taken";
}

TEST_F(ChallengeDeskTest, TheLedgersCountStopsSeekingBeforeLichessMust) {
  config_.matchmaking.enabled = true;
  config_.matchmaking.idle_s = 10;
  config_.challenge.max_bot_games_per_day = 1;
  ChallengeDesk& desk = make_desk();
  ledger_->record_bot_game();
  clock_.advance(10s);
  desk.tick();
  EXPECT_EQ(metrics_.render().find("step=\"sought\""), std::string::npos);
  EXPECT_NE(metrics_.render().find("zhbot_bot_games_24h 1"), std::string::npos);
}

}  // namespace
}  // namespace zh::bot
