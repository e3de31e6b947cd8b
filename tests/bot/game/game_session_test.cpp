// GameSession on its threads against a loopback lichess: the stream is read (and reopened when
// it drops), engine results are sent from the session's worker (never the engine's thread),
// and the session ends with the game.
#include "bot/game/game_session.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "bot/config/load_config.h"
#include "engine/chess/notation.h"
#include "tests/bot/support/loopback_client.h"
#include "tests/bot/support/test_server.h"

namespace zh::bot {
namespace {

using namespace std::chrono_literals;

std::string full_line(const std::string& moves, const std::string& status,
                      const std::string& winner = "") {
  return std::string(R"({"type":"gameFull","id":"abcdefgh","variant":{"key":"crazyhouse"},)") +
         R"("speed":"blitz","rated":false,"createdAt":1763776800000,)" +
         R"("white":{"id":"zhbot","name":"ZhBot","title":"BOT","rating":2000},)" +
         R"("black":{"id":"fsf","name":"Fsf","title":"BOT","rating":1800},)" +
         R"("initialFen":"startpos","clock":{"initial":180000,"increment":2000},)" +
         R"("state":{"type":"gameState","moves":")" + moves +
         R"(","wtime":170000,"btime":160000,"winc":2000,"binc":2000,"status":")" + status + "\"" +
         (winner.empty() ? "" : R"(,"winner":")" + winner + "\"") + "}}\n";
}

// Answers every think at once with the first legal move, from a thread of its own (as the
// real engine's search thread would), and notes whether that answer returned.
class ThreadedEngine final : public MoveEngine {
 public:
  ~ThreadedEngine() override {
    for (auto& t : threads_) t.join();
  }
  void new_game() override {}
  void think(const Game& game, const SearchLimits&,
             std::function<void(const ThinkResult&)> done) override {
    ThinkResult r;
    r.move = parse_uci(game.position(), "e2e4");
    threads_.emplace_back([this, r, done] {
      done(r);
      answer_returned = true;
    });
  }
  void ponder(const Game&) override {}
  void stop() override {}
  bool pondering() const override { return false; }
  std::string description() const override { return "threaded test engine"; }

  std::atomic<bool> answer_returned{false};

 private:
  std::vector<std::thread> threads_;
};

// A loopback lichess and everything a GameSession needs to talk to it.
class GameSessionTest : public ::testing::Test {
 protected:
  void start_server() {
    server_.server().Post(R"(/api/bot/game/abcdefgh/chat)",
                          [](const httplib::Request&, httplib::Response& res) {
                            res.set_content(R"({"ok":true})", "application/json");
                          });
    server_.start();
    config_ = load_config(std::nullopt).bot;
    config_.base_url = server_.base_url();
    config_.pgn_dir = "";
    lichess_ = std::make_unique<test::LoopbackClient>(server_, steady_clock());
    deps_.http = lichess_->http.get();
    deps_.client = lichess_->client.get();
    deps_.clock = &steady_clock();
    deps_.random = [] { return 0.5; };
    deps_.metrics = &metrics_;
    deps_.config = &config_;
    deps_.my_id = "zhbot";
    deps_.my_name = "ZhBot";
  }
  static bool wait_done(const GameSession& session) {
    for (int i = 0; i < 3000 && !session.done(); ++i) std::this_thread::sleep_for(10ms);
    return session.done();
  }

  test::TestServer server_;
  BotConfig config_;
  std::unique_ptr<test::LoopbackClient> lichess_;
  Metrics metrics_;
  GameSession::Deps deps_;
};

TEST_F(GameSessionTest, SendsTheMoveFromItsOwnThreadAndEndsWithTheGame) {
  std::atomic<int> stream_opens{0};
  std::atomic<bool> moved{false};
  std::atomic<bool> engine_free_during_post{false};
  auto owned = std::make_unique<ThreadedEngine>();
  ThreadedEngine* engine = owned.get();
  server_.server().Get("/api/bot/game/stream/abcdefgh", [&](const httplib::Request&,
                                                            httplib::Response& res) {
    // The game as it starts; once we moved (and the stream dropped), its end.
    const int open = ++stream_opens;
    res.set_content(open == 1 || !moved ? full_line("", "started")
                                        : full_line("e2e4 f7f6 d2d4 g7g5 d1h5", "mate", "white"),
                    "application/x-ndjson");
  });
  server_.server().Post("/api/bot/game/abcdefgh/move/e2e4",
                        [&](const httplib::Request&, httplib::Response& res) {
                          // Were this POST sent from the engine's thread, the engine's answer
                          // could not have returned yet.
                          for (int i = 0; i < 6000 && !engine->answer_returned; ++i)
                            std::this_thread::sleep_for(5ms);
                          engine_free_during_post = engine->answer_returned.load();
                          moved = true;
                          res.set_content(R"({"ok":true})", "application/json");
                        });
  start_server();
  GameSession session("abcdefgh", deps_, std::move(owned));
  session.start();
  ASSERT_TRUE(wait_done(session));
  EXPECT_TRUE(moved);
  EXPECT_TRUE(engine_free_during_post);
  EXPECT_GE(stream_opens.load(), 2);  // the dropped stream was reopened
  EXPECT_NE(metrics_.render().find("zhbot_moves_total 1"), std::string::npos);
}

TEST_F(GameSessionTest, ShutdownLeavesARunningGameToLichess) {
  std::atomic<int> posts{0};
  std::mutex mutex;
  std::condition_variable cv;
  int greetings = 0;
  // Registered before start_server()'s own chat handler, so this one answers.
  server_.server().Post(R"(/api/bot/game/abcdefgh/chat)",
                        [&](const httplib::Request&, httplib::Response& res) {
                          std::lock_guard lock(mutex);  // notify under it: the test may end at once
                          ++greetings;
                          cv.notify_all();
                          res.set_content(R"({"ok":true})", "application/json");
                        });
  server_.server().Get("/api/bot/game/stream/abcdefgh",
                       [&](const httplib::Request&, httplib::Response& res) {
                         // Our move is on the board; the opponent is thinking.
                         res.set_content(full_line("e2e4", "started"), "application/x-ndjson");
                       });
  server_.server().Post(R"(/api/bot/game/abcdefgh/(move|abort|resign)/?.*)",
                        [&](const httplib::Request&, httplib::Response& res) {
                          ++posts;
                          res.set_content(R"({"ok":true})", "application/json");
                        });
  start_server();
  auto session =
      std::make_unique<GameSession>("abcdefgh", deps_, std::make_unique<ThreadedEngine>());
  session->start();
  {
    // The greeting shows the session has the game: from here it could move, abort or resign.
    std::unique_lock lock(mutex);
    ASSERT_TRUE(cv.wait_for(lock, 30s, [&] { return greetings > 0; }));
  }
  session->shutdown();
  ASSERT_TRUE(wait_done(*session));
  session.reset();             // joins its threads: nothing more can come
  EXPECT_EQ(posts.load(), 0);  // no move, no abort, no resignation: a restart resumes it
}

}  // namespace
}  // namespace zh::bot
