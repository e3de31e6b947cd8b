#include "bot/lichess/lichess_client.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "bot/lichess/redact.h"
#include "tests/bot/support/test_server.h"
#include "tests/support/fake_clock.h"

namespace zh::bot {
namespace {

constexpr const char* kToken = "lip_ClientTestSecret0123456789";

class LichessClientTest : public ::testing::Test {
 protected:
  void SetUp() override { register_secret(kToken); }

  LichessClient& client() {
    if (!client_) {
      server_.start();
      HttpSettings s;
      s.base_url = server_.base_url();
      s.token = kToken;
      s.request_timeout = Millis(3000);
      http_ = std::make_unique<HttpClient>(s);
      client_ = std::make_unique<LichessClient>(
          *http_, clock_, [] { return 0.5; }, cancel_);
    }
    return *client_;
  }

  test::TestServer server_;
  zh::test::FakeClock clock_;
  CancelToken cancel_;
  std::unique_ptr<HttpClient> http_;
  std::unique_ptr<LichessClient> client_;
  std::atomic<int> hits_{0};
};

TEST_F(LichessClientTest, RateLimitWithBodyPausesTheEndpointForItsSeconds) {
  server_.server().Post(
      R"(/api/challenge/(\w+)/accept)", [&](const httplib::Request&, httplib::Response& res) {
        ++hits_;
        res.status = 429;
        res.set_content(
            R"({"error":"Too many bot games","ratelimit":{"key":"bot.vsBot.day","seconds":300}})",
            "application/json");
      });
  server_.server().Post(R"(/api/challenge/(\w+)/decline)",
                        [&](const httplib::Request&, httplib::Response& res) {
                          res.set_content(R"({"ok":true})", "application/json");
                        });
  auto r = client().accept_challenge("abcdefgh");
  EXPECT_EQ(r.status, ApiStatus::kRateLimited);
  EXPECT_EQ(hits_.load(), 1);
  EXPECT_EQ(client().rate_limits().remaining("challenge-accept"), Millis(300000));

  // Paused: no request reaches the server.
  clock_.advance(Millis(299000));
  r = client().accept_challenge("abcdefgh");
  EXPECT_EQ(r.status, ApiStatus::kRateLimited);
  EXPECT_EQ(hits_.load(), 1);
  // Other endpoints are unaffected.
  EXPECT_TRUE(client().decline_challenge("abcdefgh", DeclineReason::kLater).ok());
  // After the pause the endpoint is called again.
  clock_.advance(Millis(1001));
  client().accept_challenge("abcdefgh");
  EXPECT_EQ(hits_.load(), 2);
}

TEST_F(LichessClientTest, RateLimitWithoutBodyPausesOneMinute) {
  server_.server().Post(
      R"(/api/bot/game/(\w+)/chat)", [&](const httplib::Request&, httplib::Response& res) {
        ++hits_;
        res.status = 429;
        res.set_content("<html>lichess.org - too many requests</html>", "text/html");
      });
  auto r = client().chat("abcdefgh", ChatRoom::kPlayer, "hi");
  EXPECT_EQ(r.status, ApiStatus::kRateLimited);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_EQ(client().rate_limits().remaining("chat"), Millis(60000));
  clock_.advance(Millis(59999));
  client().chat("abcdefgh", ChatRoom::kPlayer, "hi");
  EXPECT_EQ(hits_.load(), 1);
}

TEST_F(LichessClientTest, ServerErrorsAreRetriedABoundedNumberOfTimes) {
  server_.server().Get("/api/account", [&](const httplib::Request&, httplib::Response& res) {
    ++hits_;
    res.status = 500;
    res.set_content(R"({"error":"Internal error"})", "application/json");
  });
  std::optional<Account> account;
  auto r = client().get_account(account);
  EXPECT_EQ(r.status, ApiStatus::kServerError);
  EXPECT_EQ(r.http_status, 500);
  EXPECT_EQ(r.attempts, 3);
  EXPECT_EQ(hits_.load(), 3);
  EXPECT_EQ(clock_.sleeps().size(), 2u);  // backoff between attempts, on the fake clock
  EXPECT_NE(r.error.find("Internal error"), std::string::npos);
}

TEST_F(LichessClientTest, ServerErrorThenSuccess) {
  server_.server().Get("/api/account", [&](const httplib::Request&, httplib::Response& res) {
    if (++hits_ == 1) {
      res.status = 503;
      return;
    }
    res.set_content(R"({"id":"zhbot","username":"ZhBot","title":"BOT"})", "application/json");
  });
  std::optional<Account> account;
  auto r = client().get_account(account);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_TRUE(account);
  EXPECT_TRUE(account->is_bot());
  EXPECT_EQ(r.attempts, 2);
}

TEST_F(LichessClientTest, ClientErrorsAreNotRetried) {
  server_.server().Post(
      R"(/api/bot/game/(\w+)/resign)", [&](const httplib::Request&, httplib::Response& res) {
        ++hits_;
        res.status = 400;
        res.set_content(R"({"error":"This game cannot be resigned"})", "application/json");
      });
  auto r = client().resign("abcdefgh");
  EXPECT_EQ(r.status, ApiStatus::kClientError);
  EXPECT_EQ(hits_.load(), 1);
  EXPECT_NE(r.error.find("cannot be resigned"), std::string::npos);
}

TEST_F(LichessClientTest, MovesAreNeverRetriedBlindly) {
  std::string path_seen, query_seen;
  server_.server().Post(R"(/api/bot/game/(\w+)/move/(.+))",
                        [&](const httplib::Request& req, httplib::Response& res) {
                          ++hits_;
                          path_seen = req.path;
                          query_seen = req.get_param_value("offeringDraw");
                          res.status = 502;
                        });
  auto r = client().move("abcdefgh", "P@e4", false);
  EXPECT_EQ(r.status, ApiStatus::kServerError);
  EXPECT_EQ(hits_.load(), 1);
  EXPECT_EQ(path_seen, "/api/bot/game/abcdefgh/move/P@e4");
  EXPECT_EQ(query_seen, "false");
}

TEST_F(LichessClientTest, AMoveThatHangsIsGivenUpSoonerThanOtherRequests) {
  // The server holds the move until the client has given up, but answers at the latest just
  // before the 10 s of other requests: a client that waited that long would see the answer.
  std::mutex mutex;
  std::condition_variable cv;
  bool gave_up = false;
  constexpr Millis kRequestTimeout(10000);
  server_.server().Post(R"(/api/bot/game/(\w+)/move/(.+))",
                        [&](const httplib::Request&, httplib::Response& res) {
                          std::unique_lock lock(mutex);
                          cv.wait_for(lock, kRequestTimeout - Millis(500), [&] { return gave_up; });
                          res.set_content(R"({"ok":true})", "application/json");
                        });
  server_.start();
  HttpSettings s;
  s.base_url = server_.base_url();
  s.token = kToken;
  s.request_timeout = kRequestTimeout;
  HttpClient http(s);
  LichessClient client(
      http, clock_, [] { return 0.5; }, cancel_);
  const auto start = std::chrono::steady_clock::now();
  const ApiResult r = client.move("abcdefgh", "e2e4");
  const auto took = std::chrono::steady_clock::now() - start;
  {
    std::lock_guard lock(mutex);
    gave_up = true;
  }
  cv.notify_all();
  // The handler still has to wake and take `mutex` again: join it before the test's locals go
  // (TSan: glibc asserted on a destroyed mutex here).
  server_.stop();
  EXPECT_EQ(r.status, ApiStatus::kNetworkError);
  EXPECT_GE(took, kMoveRequestTimeout - Millis(100));  // it did wait for the move's timeout
}

TEST_F(LichessClientTest, DeclineSendsTheReasonKey) {
  std::string reason;
  server_.server().Post(R"(/api/challenge/(\w+)/decline)",
                        [&](const httplib::Request& req, httplib::Response& res) {
                          reason = req.get_param_value("reason");
                          res.set_content(R"({"ok":true})", "application/json");
                        });
  EXPECT_TRUE(client().decline_challenge("abcdefgh", DeclineReason::kTimeControl).ok());
  EXPECT_EQ(reason, "timeControl");
  EXPECT_TRUE(client().decline_challenge("abcdefgh", DeclineReason::kNoBot).ok());
  EXPECT_EQ(reason, "noBot");
}

TEST_F(LichessClientTest, ChatTextIsFormEncoded) {
  std::string room, text;
  server_.server().Post(R"(/api/bot/game/(\w+)/chat)",
                        [&](const httplib::Request& req, httplib::Response& res) {
                          room = req.get_param_value("room");
                          text = req.get_param_value("text");
                          res.set_content(R"({"ok":true})", "application/json");
                        });
  EXPECT_TRUE(client().chat("abcdefgh", ChatRoom::kSpectator, "eval +0.3 & depth=5").ok());
  EXPECT_EQ(room, "spectator");
  EXPECT_EQ(text, "eval +0.3 & depth=5");
}

TEST_F(LichessClientTest, InvalidIdsAndMovesNeverReachTheNetwork) {
  server_.server().Post(R"(.*)", [&](const httplib::Request&, httplib::Response&) { ++hits_; });
  EXPECT_EQ(client().move("../x", "e2e4").status, ApiStatus::kInvalidInput);
  EXPECT_EQ(client().move("abcdefgh", "e2e4?x=1").status, ApiStatus::kInvalidInput);
  EXPECT_EQ(client().abort_game("a/b").status, ApiStatus::kInvalidInput);
  EXPECT_EQ(hits_.load(), 0);
}

TEST_F(LichessClientTest, UnauthorizedAndNotFound) {
  server_.server().Get("/api/account", [&](const httplib::Request&, httplib::Response& res) {
    res.status = 401;
    res.set_content(R"({"error":"No such token"})", "application/json");
  });
  server_.server().Post(R"(/api/bot/game/(\w+)/abort)",
                        [&](const httplib::Request&, httplib::Response& res) { res.status = 404; });
  std::optional<Account> account;
  EXPECT_EQ(client().get_account(account).status, ApiStatus::kUnauthorized);
  EXPECT_EQ(client().abort_game("abcdefgh").status, ApiStatus::kNotFound);
}

TEST_F(LichessClientTest, NetworkErrorsAreRetriedAndCarryNoToken) {
  client();
  server_.stop();  // nobody answers any more
  auto r = client().claim_victory("abcdefgh");
  EXPECT_EQ(r.status, ApiStatus::kNetworkError);
  EXPECT_EQ(r.attempts, 3);
  EXPECT_EQ(r.error.find(kToken), std::string::npos);
}

}  // namespace
}  // namespace zh::bot
