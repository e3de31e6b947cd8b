// A game session with the book in front of its engine: book moves go out through the move
// sender like any other, the log and the PGN say they came from the book, and the search takes
// over where the book ends.
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "bot/config/load_config.h"
#include "bot/game/session_core.h"
#include "tests/bot/book/book_test_support.h"
#include "tests/bot/support/loopback_client.h"
#include "tests/bot/support/test_server.h"
#include "tests/support/fake_clock.h"

namespace zh::bot {
namespace {

std::string full_line(bool opponent_is_bot) {
  const std::string us = R"({"id":"zhbot","name":"ZhBot","title":"BOT","rating":2000})";
  const std::string them = std::string(R"({"id":"alice","name":"Alice","title":)") +
                           (opponent_is_bot ? "\"BOT\"" : "null") + R"(,"rating":1800})";
  return std::string(R"({"type":"gameFull","id":"abcdefgh","variant":{"key":"crazyhouse"},)") +
         R"("speed":"blitz","rated":true,"createdAt":1763776800000,"white":)" + us +
         R"(,"black":)" + them +
         R"(,"initialFen":"startpos","clock":{"initial":180000,"increment":2000},)" +
         R"("state":{"type":"gameState","moves":"","wtime":170000,"btime":160000,"winc":2000,)" +
         R"("binc":2000,"status":"started"}})";
}

std::string state_line(const std::string& moves, const std::string& status = "started",
                       const std::string& winner = "") {
  return R"({"type":"gameState","moves":")" + moves +
         R"(","wtime":150000,"btime":140000,"winc":2000,"binc":2000,"status":")" + status + "\"" +
         (winner.empty() ? "" : R"(,"winner":")" + winner + "\"") + "}";
}

class BookSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = load_config(std::nullopt).bot;
    pgn_dir_ =
        std::filesystem::temp_directory_path() / ("zh-book-session-" + std::to_string(getpid()));
    std::filesystem::remove_all(pgn_dir_);
    config_.pgn_dir = pgn_dir_.string();
    server_.server().Post(R"(/api/bot/game/abcdefgh/(.+))",
                          [this](const httplib::Request& req, httplib::Response& res) {
                            std::lock_guard lock(mutex_);
                            posts_.push_back(req.matches[1]);
                            res.set_content(R"({"ok":true})", "application/json");
                          });
    server_.start();
    lichess_ = std::make_unique<test::LoopbackClient>(server_, clock_);

    auto sources = std::make_shared<BookSources>();
    sources->config = test::book_config();
    sources->book = test::small_book();
    auto recording = std::make_unique<test::RecordingEngine>();
    inner_ = recording.get();
    engine_ = std::make_unique<BookMoveEngine>(std::move(recording), sources, 1);

    std::ostringstream* log_text = &log_text_;
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(*log_text);
    log_ = std::make_shared<spdlog::logger>("game:abcdefgh", sink);
    SessionCore::Env env;
    env.client = lichess_->client.get();
    env.clock = &clock_;
    env.my_id = "zhbot";
    env.my_name = "ZhBot";
    core_ = std::make_unique<SessionCore>(
        "abcdefgh", config_, env, *engine_,
        // Results arrive on the book's thread; the test thread runs them, as the session's
        // worker would.
        [this](const ThinkResult& r, std::uint64_t id) {
          {
            std::lock_guard lock(mutex_);
            delivered_.push_back({r, id});
          }
          cv_.notify_all();
        },
        log_);
  }
  void TearDown() override {
    core_.reset();
    engine_.reset();
    std::filesystem::remove_all(pgn_dir_);
  }

  void feed(const std::string& line) {
    std::string error;
    auto event = parse_game_event(line, error);
    ASSERT_TRUE(event) << error << ": " << line;
    core_->on_event(*event, clock_.now());
  }
  // Waits for the next engine result and hands it to the session.
  void run_next_result() {
    std::pair<ThinkResult, std::uint64_t> next;
    {
      std::unique_lock lock(mutex_);
      ASSERT_TRUE(cv_.wait_for(lock, std::chrono::seconds(10), [&] { return !delivered_.empty(); }))
          << "no result from the engine";
      next = delivered_.front();
      delivered_.erase(delivered_.begin());
    }
    core_->on_think_done(next.first, next.second);
  }
  int count(const std::string& what) {
    std::lock_guard lock(mutex_);
    int n = 0;
    for (const auto& p : posts_) n += p == what;
    return n;
  }

  BotConfig config_;
  std::filesystem::path pgn_dir_;
  test::TestServer server_;
  zh::test::FakeClock clock_;
  std::unique_ptr<test::LoopbackClient> lichess_;
  test::RecordingEngine* inner_ = nullptr;
  std::unique_ptr<BookMoveEngine> engine_;
  std::ostringstream log_text_;
  std::shared_ptr<spdlog::logger> log_;
  std::unique_ptr<SessionCore> core_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::string> posts_;
  std::vector<std::pair<ThinkResult, std::uint64_t>> delivered_;
};

TEST_F(BookSessionTest, BookMovesAreSentLoggedAndMarkedInThePgnThenTheSearchTakesOver) {
  feed(full_line(/*opponent_is_bot=*/true));
  run_next_result();
  EXPECT_EQ(count("move/e2e4"), 1);
  EXPECT_EQ(inner_->thinks(), 0u);
  // 1. e4 d5 2. exd5: not in the book (the book knows 2. exd5 Qxd5), so the search answers.
  feed(state_line("e2e4 d7d5"));
  const auto search = inner_->wait_think(0);
  ASSERT_TRUE(search);
  EXPECT_EQ(search->moves, "e2e4 d7d5");
  ThinkResult r;
  r.move = parse_uci(test::game_after("e2e4 d7d5").position(), "e4d5");
  r.cp = 40;
  r.value = 0.1f;
  r.time_ms = 100;
  search->done(r);
  run_next_result();
  EXPECT_EQ(count("move/e4d5"), 1);
  // ...Qxd5: the book again, with a drop.
  feed(state_line("e2e4 d7d5 e4d5 d8d5"));
  run_next_result();
  EXPECT_EQ(count("move/P@e4"), 1);
  feed(state_line("e2e4 d7d5 e4d5 d8d5 P@e4", "resign", "white"));
  ASSERT_TRUE(core_->finished());

  const std::string log = log_text_.str();
  EXPECT_NE(log.find("played e2e4 from the book (weight 300 of 400;"), std::string::npos) << log;
  EXPECT_NE(log.find("played P@e4 from the book (weight 5 of 5;"), std::string::npos) << log;
  EXPECT_NE(log.find("played e4d5 (value"), std::string::npos) << log;

  ASSERT_TRUE(core_->pgn_path());
  std::ifstream in(*core_->pgn_path());
  std::stringstream pgn;
  pgn << in.rdbuf();
  const std::string text = pgn.str();
  EXPECT_NE(text.find("1. e4 { book [%clk "), std::string::npos) << text;
  EXPECT_NE(text.find("2. exd5 { [%eval 0.40] [%clk "), std::string::npos) << text;
  EXPECT_NE(text.find("3. P@e4 { book [%clk "), std::string::npos) << text;
}

TEST_F(BookSessionTest, AgainstAHumanTheBookMoveKeepsTheMinimumThinkTime) {
  config_.human_min_think_ms = 300;
  const auto start = std::chrono::steady_clock::now();
  feed(full_line(/*opponent_is_bot=*/false));
  run_next_result();
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(300));
  EXPECT_EQ(count("move/e2e4"), 1);
}

}  // namespace
}  // namespace zh::bot
