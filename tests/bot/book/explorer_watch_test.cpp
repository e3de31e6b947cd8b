// The opening explorer's failures as the operator sees them: said once in the log when they
// start (with what to do about a refusal), counted on /metrics, and the recovery said once.
#include "bot/book/explorer_watch.h"

#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "bot/logging/log_setup.h"
#include "bot/metrics/metrics.h"

namespace zh::bot {
namespace {

// Answers with the error (or the moves) the test sets before each query.
class SwitchableExplorer final : public OpeningExplorer {
 public:
  ExplorerAnswer query(const std::string&) override {
    std::lock_guard lock(mutex_);
    return next_;
  }
  void fail_with(std::string error) {
    std::lock_guard lock(mutex_);
    next_ = ExplorerAnswer{{}, std::move(error)};
  }
  void answer() {
    std::lock_guard lock(mutex_);
    next_ = ExplorerAnswer{{{"e2e4", 5, 0, 1}}, ""};
  }

 private:
  std::mutex mutex_;
  ExplorerAnswer next_;
};

class ExplorerWatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setup_logging(LogFormat::kText, "debug", [this](std::string_view line) {
      std::lock_guard lock(mutex_);
      log_.emplace_back(line);
    });
  }
  void TearDown() override { spdlog::set_default_logger(previous_); }

  int lines_with(const std::string& text) {
    std::lock_guard lock(mutex_);
    int n = 0;
    for (const auto& line : log_) n += line.find(text) != std::string::npos;
    return n;
  }

  std::shared_ptr<spdlog::logger> previous_ = spdlog::default_logger();
  std::mutex mutex_;
  std::vector<std::string> log_;
};

TEST_F(ExplorerWatchTest, ARefusalIsSaidOnceInTheLogAndCountedOnMetrics) {
  auto inner = std::make_shared<SwitchableExplorer>();
  ExplorerWatch watch(inner, "https://explorer.example/lichess", /*token_sent=*/false);
  Metrics metrics;
  metrics.set_explorer_source([&] {
    const ExplorerCounts c = watch.counts();
    return ExplorerFigures{c.answered, c.failed, c.failing};
  });
  inner->fail_with("HTTP 401");
  for (int move = 0; move < 5; ++move) EXPECT_EQ(watch.query("fen").error, "HTTP 401");
  EXPECT_EQ(lines_with("opening explorer https://explorer.example/lichess failed: HTTP 401"), 1);
  EXPECT_EQ(lines_with("book_explorer_send_token"), 1) << "a refusal says what to do";
  std::string text = metrics.render();
  EXPECT_NE(text.find("zhbot_explorer_requests_total{outcome=\"failed\"} 5\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("zhbot_explorer_failing 1\n"), std::string::npos) << text;

  inner->answer();
  EXPECT_TRUE(watch.query("fen").error.empty());
  EXPECT_TRUE(watch.query("fen").error.empty());
  EXPECT_EQ(lines_with("is back: it answered again"), 1);
  text = metrics.render();
  EXPECT_NE(text.find("zhbot_explorer_requests_total{outcome=\"answered\"} 2\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("zhbot_explorer_failing 0\n"), std::string::npos) << text;
}

TEST_F(ExplorerWatchTest, ATimeoutIsSaidOnceWithoutTheTokenHint) {
  auto inner = std::make_shared<SwitchableExplorer>();
  ExplorerWatch watch(inner, "https://explorer.lichess.org/lichess", /*token_sent=*/true);
  inner->fail_with("no answer (timeout)");
  for (int move = 0; move < 3; ++move) watch.query("fen");
  EXPECT_EQ(lines_with("failed: no answer (timeout)"), 1);
  EXPECT_EQ(lines_with("book_explorer_send_token"), 0);
  EXPECT_EQ(watch.counts().failed, 3u);
}

TEST(ExplorerMetrics, AbsentWhileTheExplorerIsOff) {
  EXPECT_EQ(Metrics().render().find("zhbot_explorer"), std::string::npos);
}

}  // namespace
}  // namespace zh::bot
