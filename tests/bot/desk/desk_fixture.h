#pragma once
// What the desk's tests share: a local HTTP server that answers lichess's challenge routes and
// records each call, the desk's dependencies on a fake clock, and a helper to start a game.
#include <gtest/gtest.h>
#include <unistd.h>

#include <condition_variable>
#include <filesystem>

#include "bot/config/bot_config.h"
#include "bot/desk/desk_deps.h"
#include "bot/game/game_session.h"
#include "tests/bot/game/fake_engine.h"
#include "tests/bot/support/loopback_client.h"
#include "tests/support/fake_clock.h"

namespace zh::bot::test {

using namespace std::chrono_literals;

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

inline Challenge incoming(const std::string& id, const std::string& user, int rating,
                          bool bot = false) {
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

inline GameInfo game_of(const std::string& id, const std::string& opponent) {
  GameInfo g;
  g.game_id = id;
  g.opponent.id = opponent;
  g.opponent.username = opponent;
  return g;
}

// The server and the dependencies; a derived fixture makes the object under test and resets
// it in stop_subject(), before the server goes.
class DeskFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("zhbot-desk-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
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
    stop_subject();
    std::filesystem::remove_all(dir_);
  }
  virtual void stop_subject() = 0;

  // The dependencies of the object under test, with a new client and ledger; "random" is 0.
  DeskDeps make_deps() {
    client_ = std::make_unique<LoopbackClient>(server_, clock_);
    ledger_ = std::make_unique<GameLedger>(StateFile(dir_), clock_);
    DeskDeps deps;
    deps.client = client_->client.get();
    deps.clock = &clock_;
    deps.metrics = &metrics_;
    deps.sessions = &sessions_;
    deps.ledger = ledger_.get();
    deps.random = [] { return 0.0; };
    return deps;
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
      return std::make_unique<GameSession>(id, std::move(d), std::make_unique<FakeEngine>());
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

  std::filesystem::path dir_;
  BotConfig config_;
  TestServer server_;
  zh::test::FakeClock clock_;
  Metrics metrics_;
  SessionTable sessions_;
  Recorder calls_;
  std::mutex gate_mutex_;
  std::condition_variable gate_cv_;
  bool gate_open_ = true;
  int create_status_ = 200;
  std::string create_body_ = R"({"id":"out00001","status":"created"})";
  std::unique_ptr<LoopbackClient> client_;
  std::unique_ptr<GameLedger> ledger_;
};

}  // namespace zh::bot::test
