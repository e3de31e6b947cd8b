#include "bot/daemon/daemon.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "bot/config/load_config.h"
#include "bot/daemon/exit_codes.h"
#include "bot/lichess/redact.h"
#include "bot/logging/log_setup.h"
#include "tests/bot/game/fake_engine.h"
#include "tests/bot/support/test_server.h"

namespace zh::bot {
namespace {

using namespace std::chrono_literals;

constexpr const char* kToken = "lip_DaemonTestSecret0123456789";

const char* kCrazyhouseChallenge =
    R"({"type":"challenge","challenge":{"id":"zhChal01","url":"x","status":"created","challenger":{"id":"alice","name":"Alice","rating":1700},"destUser":{"id":"zhbot","name":"ZhBot","title":"BOT"},"variant":{"key":"crazyhouse"},"rated":false,"speed":"blitz","timeControl":{"type":"clock","limit":180,"increment":2},"color":"random"},"compat":{"bot":true,"board":false}})";
const char* kStandardChallenge =
    R"({"type":"challenge","challenge":{"id":"stChal02","url":"x","status":"created","challenger":{"id":"bob","name":"Bob","rating":1700},"destUser":{"id":"zhbot","name":"ZhBot","title":"BOT"},"variant":{"key":"standard"},"rated":false,"speed":"blitz","timeControl":{"type":"clock","limit":180,"increment":2},"color":"random"},"compat":{"bot":true,"board":false}})";

class DaemonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    register_secret(kToken);
    setup_logging(LogFormat::kText, "debug", [this](std::string_view line) {
      std::lock_guard lock(mutex_);
      log_.emplace_back(line);
    });
    config_ = load_config(std::nullopt).bot;
    config_.shutdown_grace_s = 1;
    config_.state_dir = (std::filesystem::path(::testing::TempDir()) /
                         ("zhbot-daemon-state-" + std::to_string(::getpid()) + "-" +
                          ::testing::UnitTest::GetInstance()->current_test_info()->name()))
                            .string();
    std::filesystem::remove_all(config_.state_dir);
  }
  void TearDown() override {
    std::lock_guard lock(mutex_);
    for (const auto& line : log_) EXPECT_EQ(line.find(kToken), std::string::npos) << line;
    spdlog::set_default_logger(previous_);
    std::filesystem::remove_all(config_.state_dir);
  }

  void account(const std::string& body, int status = 200,
               const std::string& playing = R"({"nowPlaying":[]})") {
    server_.server().Get(
        "/api/account", [this, body, status](const httplib::Request& req, httplib::Response& res) {
          auth_ok_ = req.get_header_value("Authorization") == std::string("Bearer ") + kToken;
          res.status = status;
          res.set_content(body, "application/json");
        });
    server_.server().Get("/api/account/playing",
                         [playing](const httplib::Request&, httplib::Response& res) {
                           res.set_content(playing, "application/json");
                         });
  }

  int run_daemon(const std::function<void(Daemon&)>& while_running = {}) {
    server_.start();
    config_.base_url = server_.base_url();
    Daemon daemon(config_, kToken, [] { return std::make_unique<test::FakeEngine>(); });
    int rc = -1;
    std::thread runner([&] { rc = daemon.run(); });
    if (while_running) while_running(daemon);
    runner.join();
    return rc;
  }

  bool logged(const std::string& text) {
    std::lock_guard lock(mutex_);
    for (const auto& line : log_)
      if (line.find(text) != std::string::npos) return true;
    return false;
  }

  BotConfig config_;
  test::TestServer server_;
  std::shared_ptr<spdlog::logger> previous_ = spdlog::default_logger();
  std::mutex mutex_;
  std::vector<std::string> log_;
  std::atomic<bool> auth_ok_{false};
  std::atomic<int> event_opens_{0};
};

TEST_F(DaemonTest, RefusesAnAccountThatIsNotABot) {
  account(R"({"id":"zhbot","username":"ZhBot"})");
  server_.server().Get("/api/stream/event",
                       [this](const httplib::Request&, httplib::Response&) { ++event_opens_; });
  EXPECT_EQ(run_daemon(), kExitConfig);
  EXPECT_TRUE(auth_ok_);
  EXPECT_EQ(event_opens_.load(), 0);
  EXPECT_TRUE(logged("zhbot upgrade-account"));
}

TEST_F(DaemonTest, ExplainsARejectedToken) {
  account(R"({"error":"No such token"})", 401);
  EXPECT_EQ(run_daemon(), kExitConfig);
  EXPECT_TRUE(logged("bot:play"));
}

TEST_F(DaemonTest, AnswersChallengesOnceEachAndDrainsOnShutdown) {
  account(R"({"id":"zhbot","username":"ZhBot","title":"BOT"})");
  std::mutex m;
  std::vector<std::string> answers;
  server_.server().Get("/api/stream/event", [&](const httplib::Request&, httplib::Response& res) {
    ++event_opens_;
    // The same challenges twice, as a reconnect replays them, plus garbage and an unknown type.
    const std::string body = std::string(kStandardChallenge) + "\n\nnot json\n" +
                             R"({"type":"somethingNew"})" + "\n" + kStandardChallenge + "\n" +
                             kCrazyhouseChallenge + "\n";
    res.set_content(body, "application/x-ndjson");
  });
  server_.server().Post(R"(/api/challenge/(\w+)/(accept|decline))", [&](const httplib::Request& req,
                                                                        httplib::Response& res) {
    std::lock_guard lock(m);
    answers.push_back(std::string(req.matches[1]) + " " + std::string(req.matches[2]) + " " +
                      req.get_param_value("reason"));
    res.set_content(R"({"ok":true})", "application/json");
  });
  const int rc = run_daemon([&](Daemon& daemon) {
    for (int i = 0; i < 3000; ++i) {
      {
        std::lock_guard lock(m);
        if (answers.size() >= 2 && event_opens_ >= 2) break;
      }
      std::this_thread::sleep_for(10ms);
    }
    daemon.request_shutdown();
  });
  EXPECT_EQ(rc, 0);
  std::lock_guard lock(m);
  EXPECT_EQ(answers, (std::vector<std::string>{"stChal02 decline variant", "zhChal01 accept "}));
  EXPECT_TRUE(logged("skipping event line"));
}

TEST_F(DaemonTest, LichessFailingAtStartIsUnavailableNotAConfigurationError) {
  account(R"({"error":"down for maintenance"})", 503);
  EXPECT_EQ(run_daemon(), kExitUnavailable);
  EXPECT_TRUE(logged("cannot read the account"));
}

TEST_F(DaemonTest, NoServerAtAllAtStartIsUnavailable) {
  server_.start();
  const std::string closed = server_.base_url();  // a port nobody listens on once stopped
  server_.stop();
  config_.base_url = closed;
  Daemon daemon(config_, kToken, [] { return std::make_unique<test::FakeEngine>(); });
  EXPECT_EQ(daemon.run(), kExitUnavailable);
}

TEST_F(DaemonTest, ATokenRevokedWhileRunningStopsWithTheConfigurationCode) {
  account(R"({"id":"zhbot","username":"ZhBot","title":"BOT"})");
  server_.server().Get("/api/stream/event", [](const httplib::Request&, httplib::Response& res) {
    res.status = 401;
    res.set_content(R"({"error":"No such token"})", "application/json");
  });
  EXPECT_EQ(run_daemon(), kExitConfig);
}

TEST_F(DaemonTest, ServesTheStatusPageAndItsJsonWithoutTheToken) {
  account(R"({"id":"zhbot","username":"ZhBot","title":"BOT",)"
          R"("perfs":{"crazyhouse":{"rating":2012,"games":30}}})");
  server_.server().Get("/api/stream/event", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(kStandardChallenge) + "\n", "application/x-ndjson");
  });
  server_.server().Post(R"(/api/challenge/(\w+)/decline)",
                        [](const httplib::Request&, httplib::Response& res) {
                          res.set_content(R"({"ok":true})", "application/json");
                        });
  {  // a loopback port free right now, for the status pages
    test::TestServer probe;
    probe.start();
    config_.metrics_port = probe.port();
  }
  nlohmann::json status;
  std::string page;
  int missing_status = 0;
  const int rc = run_daemon([&](Daemon& daemon) {
    httplib::Client client("127.0.0.1", int(config_.metrics_port));
    for (int i = 0; i < 3000; ++i) {
      const auto res = client.Get("/status.json");
      if (res && res->status == 200) {
        // The token must be nowhere in what the page shows, whatever the daemon is doing.
        EXPECT_EQ(res->body.find(kToken), std::string::npos);
        EXPECT_EQ(res->body.find("Bearer"), std::string::npos);
        status = nlohmann::json::parse(res->body);
        if (!status["declines"].empty()) break;
      }
      std::this_thread::sleep_for(10ms);
    }
    const auto html = client.Get("/status");
    if (html) page = html->body;
    const auto other = client.Get("/status.yaml");
    missing_status = other ? other->status : -1;
    daemon.request_immediate_exit();
  });
  EXPECT_EQ(rc, kExitOk);
  EXPECT_EQ(status["connection"]["account"], "ZhBot");
  EXPECT_EQ(status["connection"]["title"], "BOT");
  EXPECT_EQ(status["connection"]["rating"], 2012);
  EXPECT_EQ(status["rating_history"][0]["rating"], 2012);
  ASSERT_EQ(status["declines"].size(), 1u) << status.dump(2);
  EXPECT_EQ(status["declines"][0]["id"], "stChal02");
  EXPECT_EQ(status["declines"][0]["reason"], "variant");
  EXPECT_EQ(status["declines"][0]["challenger"]["name"], "Bob");
  EXPECT_EQ(status["declines"][0]["time_control"], "180+2");
  EXPECT_TRUE(status["games"].empty());
  EXPECT_NE(page.find("status.json"), std::string::npos);
  EXPECT_EQ(page.find(kToken), std::string::npos);
  EXPECT_EQ(missing_status, 404);
}

const char* kBotChallenge =
    R"({"type":"challenge","challenge":{"id":"botChal3","url":"x","status":"created","challenger":{"id":"otherbot","name":"OtherBot","title":"BOT","rating":1900},"destUser":{"id":"zhbot","name":"ZhBot","title":"BOT"},"variant":{"key":"crazyhouse"},"rated":false,"speed":"blitz","timeControl":{"type":"clock","limit":180,"increment":2},"color":"random"},"compat":{"bot":true,"board":false}})";
const char* kBotGameStart =
    R"({"type":"gameStart","game":{"gameId":"botChal3","fullId":"botChal3abcd","color":"white","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","hasMoved":false,"isMyTurn":true,"lastMove":"","opponent":{"id":"otherbot","username":"OtherBot","rating":1900},"perf":"crazyhouse","rated":false,"secondsLeft":180,"source":"friend","speed":"blitz","variant":{"key":"crazyhouse","name":"Crazyhouse"},"compat":{"bot":true,"board":false}}})";

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Serves the event stream once with `lines`, records challenge answers, and stops the daemon
// as soon as `answers_wanted` answers came in (or after 3 s).
class BotCapTest : public DaemonTest {
 protected:
  std::vector<std::string> play(const std::string& lines, std::size_t answers_wanted) {
    account(R"({"id":"zhbot","username":"ZhBot","title":"BOT"})");
    std::mutex m;
    std::vector<std::string> answers;
    server_.server().Get("/api/stream/event", [&](const httplib::Request&, httplib::Response& res) {
      res.set_content(++event_opens_ == 1 ? lines : std::string("\n"), "application/x-ndjson");
    });
    server_.server().Post(R"(/api/challenge/(\w+)/(accept|decline))",
                          [&](const httplib::Request& req, httplib::Response& res) {
                            std::lock_guard lock(m);
                            answers.push_back(std::string(req.matches[1]) + " " +
                                              std::string(req.matches[2]) + " " +
                                              req.get_param_value("reason"));
                            res.set_content(R"({"ok":true})", "application/json");
                          });
    EXPECT_EQ(run_daemon([&](Daemon& daemon) {
                for (int i = 0; i < 3000; ++i) {
                  {
                    std::lock_guard lock(m);
                    if (answers.size() >= answers_wanted && event_opens_ >= 2) break;
                  }
                  std::this_thread::sleep_for(10ms);
                }
                daemon.request_immediate_exit();
              }),
              kExitOk);
    std::lock_guard lock(m);
    return answers;
  }
};

TEST_F(BotCapTest, AStartedBotGameIsWrittenToTheStateFile) {
  config_.challenge.max_bot_games_per_day = 5;
  const auto before = unix_now();
  const auto answers = play(std::string(kBotChallenge) + "\n" + kBotGameStart + "\n", 1);
  EXPECT_EQ(answers, (std::vector<std::string>{"botChal3 accept "}));
  const PersistentState state = StateFile(config_.state_dir).load();
  ASSERT_EQ(state.bot_game_starts.size(), 1u);
  EXPECT_GE(state.bot_game_starts[0], before - 1);
  EXPECT_LE(state.bot_game_starts[0], unix_now() + 1);
}

TEST_F(BotCapTest, BotGamesFromBeforeARestartCountAgainstTheDailyCap) {
  config_.challenge.max_bot_games_per_day = 2;
  // Two games today (one an hour ago, one just now) and one from the day before yesterday.
  ASSERT_TRUE(
      StateFile(config_.state_dir)
          .save(PersistentState{{unix_now() - 50 * 3600, unix_now() - 3600, unix_now()}, {}}));
  const auto answers = play(std::string(kBotChallenge) + "\n", 1);
  EXPECT_EQ(answers, (std::vector<std::string>{"botChal3 decline later"}));
  EXPECT_TRUE(logged("2 bot game(s) started in the last 24 h"));
}

TEST_F(BotCapTest, GamesOlderThanADayNoLongerCount) {
  config_.challenge.max_bot_games_per_day = 1;
  ASSERT_TRUE(StateFile(config_.state_dir).save(PersistentState{{unix_now() - 25 * 3600}, {}}));
  const auto answers = play(std::string(kBotChallenge) + "\n", 1);
  EXPECT_EQ(answers, (std::vector<std::string>{"botChal3 accept "}));
}

TEST_F(BotCapTest, ACorruptStateFileIsAWarningAndTheBotStillPlays) {
  config_.challenge.max_bot_games_per_day = 1;
  std::filesystem::create_directories(config_.state_dir);
  std::ofstream(std::filesystem::path(config_.state_dir) / "state.json") << "{\"version\":1,[[[";
  const auto answers = play(std::string(kBotChallenge) + "\n", 1);
  EXPECT_EQ(answers, (std::vector<std::string>{"botChal3 accept "}));
  EXPECT_TRUE(logged("is unusable"));
}

// A game from before a restart against a bot, and lichess's word on who is a bot.
const char* kPlayingABot =
    R"({"nbMyTurn":0,"nowPlaying":[{"gameId":"resumed1","fullId":"resumed1abcd","color":"black","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","hasMoved":false,"isMyTurn":false,"lastMove":"","opponent":{"id":"otherbot","username":"OtherBot","rating":1900},"rated":false,"speed":"blitz","variant":{"key":"crazyhouse","name":"Crazyhouse"}}]})";
const char* kResumedGameFull =
    R"({"type":"gameFull","id":"resumed1","variant":{"key":"crazyhouse"},"speed":"blitz","rated":false,"white":{"id":"otherbot","name":"OtherBot","title":"BOT","rating":1900},"black":{"id":"zhbot","name":"ZhBot","title":"BOT","rating":1500},"initialFen":"startpos","clock":{"initial":180000,"increment":2000},"state":{"type":"gameState","moves":"","wtime":180000,"btime":180000,"winc":2000,"binc":2000,"status":"started"}})";
const char* kThirdBotChallenge =
    R"({"type":"challenge","challenge":{"id":"botChal4","url":"x","status":"created","challenger":{"id":"thirdbot","name":"ThirdBot","title":"BOT","rating":1800},"destUser":{"id":"zhbot","name":"ZhBot","title":"BOT"},"variant":{"key":"crazyhouse"},"rated":false,"speed":"blitz","timeControl":{"type":"clock","limit":180,"increment":2},"color":"random"},"compat":{"bot":true,"board":false}})";

// Resumes the game above, then offers a bot's challenge; returns the answers to it.
class ResumeTest : public DaemonTest {
 protected:
  std::vector<std::string> resume_then_bot_challenge(int users_status_code) {
    account(R"({"id":"zhbot","username":"ZhBot","title":"BOT"})", 200, kPlayingABot);
    server_.server().Get("/api/users/status", [this, users_status_code](const httplib::Request& req,
                                                                        httplib::Response& res) {
      {
        std::lock_guard lock(ids_mutex_);
        asked_ids_ = req.get_param_value("ids");
      }
      res.status = users_status_code;
      res.set_content(users_status_code == 200
                          ? R"([{"id":"otherbot","name":"OtherBot","title":"BOT","online":true}])"
                          : R"({"error":"down"})",
                      "application/json");
    });
    server_.server().Get(
        R"(/api/bot/game/stream/resumed1)", [](const httplib::Request&, httplib::Response& res) {
          res.set_content(std::string(kResumedGameFull) + "\n", "application/x-ndjson");
        });
    std::mutex m;
    std::vector<std::string> answers;
    server_.server().Get("/api/stream/event", [&](const httplib::Request&, httplib::Response& res) {
      res.set_content(
          ++event_opens_ == 1 ? std::string(kThirdBotChallenge) + "\n" : std::string("\n"),
          "application/x-ndjson");
    });
    server_.server().Post(R"(/api/challenge/(\w+)/(accept|decline))",
                          [&](const httplib::Request& req, httplib::Response& res) {
                            std::lock_guard lock(m);
                            answers.push_back(std::string(req.matches[1]) + " " +
                                              std::string(req.matches[2]) + " " +
                                              req.get_param_value("reason"));
                            res.set_content(R"({"ok":true})", "application/json");
                          });
    // Two slots, one kept for humans: a bot may take one, and the resumed bot game holds it.
    config_.challenge.max_concurrent_games = 2;
    config_.challenge.games_reserved_for_humans = 1;
    config_.challenge.queue_size = 0;
    run_daemon([&](Daemon& daemon) {
      for (int i = 0; i < 3000; ++i) {
        {
          std::lock_guard lock(m);
          if (!answers.empty()) break;
        }
        std::this_thread::sleep_for(10ms);
      }
      daemon.request_immediate_exit();
    });
    std::lock_guard lock(m);
    return answers;
  }

  std::string asked_ids() {
    std::lock_guard lock(ids_mutex_);
    return asked_ids_;
  }

  std::mutex ids_mutex_;
  std::string asked_ids_;
};

TEST_F(ResumeTest, AGameResumedAgainstABotHoldsABotSlot) {
  const auto answers = resume_then_bot_challenge(200);
  EXPECT_EQ(asked_ids(), "otherbot");
  EXPECT_TRUE(logged("resuming ongoing game resumed1 vs OtherBot (a bot)"));
  // Counted as a game against a human, the resumed game left the bots' slot free.
  EXPECT_EQ(answers, (std::vector<std::string>{"botChal4 decline later"}));
}

TEST_F(ResumeTest, WhenLichessCannotSayTheOpponentCountsAsABot) {
  const auto answers = resume_then_bot_challenge(500);
  EXPECT_TRUE(logged("could not ask lichess which of otherbot are bots"));
  EXPECT_EQ(answers, (std::vector<std::string>{"botChal4 decline later"}));
}

}  // namespace
}  // namespace zh::bot
