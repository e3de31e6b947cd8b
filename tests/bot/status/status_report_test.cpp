#include "bot/status/status_report.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <thread>

#include "bot/status/status_json.h"
#include "tests/bot/status/status_fixtures.h"

namespace zh::bot {
namespace {

using namespace std::chrono_literals;

StatusSnapshot snapshot(bool healthy) {
  StatusSnapshot s;
  s.version = "1.2.3";
  s.now_unix_ms = 1700000010000;
  s.connection.account = "ZhBot";
  s.connection.title = "BOT";
  s.connection.rating = 2012;
  s.connection.event_stream_up = healthy;
  s.connection.up_since_unix_ms = healthy ? 1700000000000 : 0;
  s.connection.last_error = "event stream lost: network error";
  s.connection.last_error_unix_ms = 1699999990000;
  s.evaluator.backend = "torch";
  s.evaluator.device = "cpu";
  s.evaluator.precision = "int8";
  s.evaluator.nodes_per_second = 1234;
  s.games = {test::sample_game()};
  s.desk = test::sample_desk();
  s.declines = {test::sample_decline()};
  FinishedGame f;
  f.result = "loss";
  f.opponent = {"Strong", "IM", 2300};
  f.rating_diff = -5;
  f.ended_unix_ms = 1700000000000;
  s.finished = {f};
  return s;
}

TEST(StatusReport, ShowsHealthGamesQueueDeclinesAndFinishedGames) {
  const std::string text = format_status(status_json(snapshot(true)));
  for (const char* part :
       {"zhbot 1.2.3 as BOT ZhBot (2012): healthy", "event stream: up since 10 s ago",
        "last error (20 s ago): event stream lost: network error",
        "evaluator: torch on cpu (int8), healthy, 1234 nodes/s", "games (1)",
        "abcd1234  vs GM Rival (2450), black, blitz rated",
        "clocks: us 2:43, them 2:31   eval -0.35   ply 6, thinking",
        "last moves: e4 d5 exd5 Qxd5 b4 Nc6", "https://lichess.org/abcd1234", "queue (1)",
        "Waiter (1800)  180+2 rated", "Speedy", "tooFast: 15+0 is faster than 60 s",
        "matchmaking: challenging OtherBot 180+2, 7 bot games in 24 h",
        "loss vs IM Strong (2300)  -5"})
    EXPECT_NE(text.find(part), std::string::npos) << part << "\n" << text;
}

TEST(StatusReport, AnUnhealthyDaemonSaysSo) {
  const std::string text = format_status(status_json(snapshot(false)));
  EXPECT_NE(text.find("UNHEALTHY"), std::string::npos) << text;
  EXPECT_NE(text.find("event stream: DOWN"), std::string::npos) << text;
}

// A loopback server answering /status.json as told.
class StatusServer {
 public:
  StatusServer(int status, std::string body) {
    server_.Get("/status.json", [status, body](const httplib::Request&, httplib::Response& res) {
      res.status = status;
      res.set_content(body, "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(1ms);
  }
  ~StatusServer() {
    server_.stop();
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

TEST(StatusFetch, HealthyAndUnhealthyAnswersGiveTheirCodes) {
  StatusServer healthy(200, status_json(snapshot(true)).dump());
  StatusFetch f = fetch_status(healthy.url(), 5s);
  EXPECT_EQ(f.outcome, kStatusHealthy) << f.error;
  EXPECT_EQ(f.status["connection"]["account"], "ZhBot");
  StatusServer unhealthy(200, status_json(snapshot(false)).dump());
  f = fetch_status(unhealthy.url(), 5s);
  EXPECT_EQ(f.outcome, kStatusUnhealthy) << f.error;
}

TEST(StatusFetch, NoAnswerIsUnreachable) {
  int port = 0;
  {
    StatusServer gone(200, "{}");
    port = std::stoi(gone.url().substr(gone.url().rfind(':') + 1));
  }
  const StatusFetch f = fetch_status("http://127.0.0.1:" + std::to_string(port), 5s);
  EXPECT_EQ(f.outcome, kStatusUnreachable);
  EXPECT_NE(f.error.find("no answer"), std::string::npos) << f.error;
}

TEST(StatusFetch, AnAnswerThatIsNotAStatusIsABadAnswer) {
  StatusServer error(404, "not found");
  StatusFetch f = fetch_status(error.url(), 5s);
  EXPECT_EQ(f.outcome, kStatusBadAnswer);
  EXPECT_NE(f.error.find("HTTP 404"), std::string::npos) << f.error;
  StatusServer garbage(200, "<html>something else</html>");
  f = fetch_status(garbage.url(), 5s);
  EXPECT_EQ(f.outcome, kStatusBadAnswer);
  EXPECT_NE(f.error.find("not zhbot's status"), std::string::npos) << f.error;
}

}  // namespace
}  // namespace zh::bot
