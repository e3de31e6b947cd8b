#include "bot/book/opening_explorer.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <mutex>
#include <vector>

#include "bot/book/book_move_engine.h"
#include "bot/config/bot_config.h"
#include "tests/bot/support/test_server.h"

namespace zh::bot {
namespace {

TEST(OpeningExplorer, ParsesTheExplorersMoves) {
  const ExplorerAnswer a = parse_explorer_answer(
      R"({"white":10,"draws":1,"black":5,"moves":[)"
      R"({"uci":"e2e4","san":"e4","averageRating":1900,"white":7,"draws":1,"black":2},)"
      R"({"uci":"N@f3","san":"N@f3","white":3,"draws":0,"black":3}],"topGames":[]})");
  ASSERT_TRUE(a.error.empty()) << a.error;
  ASSERT_EQ(a.moves.size(), 2u);
  EXPECT_EQ(a.moves[0].uci, "e2e4");
  EXPECT_EQ(a.moves[0].games(), 10);
  EXPECT_EQ(a.moves[1].uci, "N@f3");
  EXPECT_EQ(a.moves[1].black, 3);
}

TEST(OpeningExplorer, NamesAnAnswerItCannotRead) {
  EXPECT_NE(parse_explorer_answer("<html>").error.find("unexpected explorer answer"),
            std::string::npos);
  EXPECT_FALSE(parse_explorer_answer(R"({"moves":[{"san":"e4"}]})").error.empty());
  EXPECT_FALSE(parse_explorer_answer(R"({"moves":[{"uci":"e2e4","white":-1}]})").error.empty());
  EXPECT_TRUE(parse_explorer_answer(R"({"moves":[]})").error.empty());
}

TEST(OpeningExplorer, TheBotsTokenGoesToLichesssExplorerHostAlone) {
  EXPECT_TRUE(explorer_gets_token("https://explorer.lichess.org/lichess", false));
  EXPECT_TRUE(explorer_gets_token("https://Explorer.Lichess.org:443/lichess?x=1", false));
  EXPECT_TRUE(explorer_gets_token("https://explorer.lichess.org", false));
  // Not in clear text, not to a look-alike, not past a user part or in a query.
  EXPECT_FALSE(explorer_gets_token("http://explorer.lichess.org/lichess", false));
  EXPECT_FALSE(explorer_gets_token("https://explorer.lichess.ovh/lichess", false));
  EXPECT_FALSE(explorer_gets_token("https://explorer.lichess.org.example.com/lichess", false));
  EXPECT_FALSE(explorer_gets_token("https://explorer.lichess.org@example.com/lichess", false));
  EXPECT_FALSE(explorer_gets_token("https://example.com/explorer.lichess.org", false));
  EXPECT_FALSE(explorer_gets_token("https://example.com?h=explorer.lichess.org", false));
  EXPECT_FALSE(explorer_gets_token("https://lichess.org/lichess", false));
  // Anywhere the operator opted in.
  EXPECT_TRUE(explorer_gets_token("https://mirror.example/lichess", true));
}

TEST(OpeningExplorer, AConfiguredUrlGetsTheTokenOnlyWhenTheOperatorOptsIn) {
  test::TestServer server;
  std::mutex mutex;
  std::vector<std::string> authorizations;
  server.server().Get("/lichess", [&](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lock(mutex);
    authorizations.push_back(req.get_header_value("Authorization"));
    res.set_content(R"({"moves":[]})", "application/json");
  });
  server.start();
  BookConfig c = BotConfig::defaults().book;
  c.enabled = true;
  c.explorer = true;
  c.explorer_url = server.base_url() + "/lichess";
  c.explorer_timeout_ms = 5000;
  const std::string fen = "8/8/8/8/8/8/8/K6k/ w - - 0 1";
  const std::string token = "lip_ExplorerTestToken";
  const auto without = load_book_sources(c, token);
  EXPECT_FALSE(without->explorer_token);
  EXPECT_TRUE(without->explorer->query(fen).error.empty());
  c.explorer_send_token = true;
  const auto with = load_book_sources(c, token);
  EXPECT_TRUE(with->explorer_token);
  EXPECT_TRUE(with->explorer->query(fen).error.empty());
  std::lock_guard lock(mutex);
  EXPECT_EQ(authorizations, (std::vector<std::string>{"", "Bearer " + token}));
}

TEST(OpeningExplorer, AsksForCrazyhouseWithTheFenAndNoToken) {
  test::TestServer server;
  std::mutex mutex;
  std::string variant, fen, authorization = "unset";
  server.server().Get(
      "/explorer/lichess", [&](const httplib::Request& req, httplib::Response& res) {
        std::lock_guard lock(mutex);
        variant = req.get_param_value("variant");
        fen = req.get_param_value("fen");
        authorization = req.get_header_value("Authorization");
        res.set_content(R"({"moves":[{"uci":"e2e4","white":5,"draws":0,"black":1}]})",
                        "application/json");
      });
  server.start();
  HttpOpeningExplorer explorer(server.base_url() + "/explorer/lichess", Millis(5000));
  const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1";
  const ExplorerAnswer a = explorer.query(start);
  ASSERT_TRUE(a.error.empty()) << a.error;
  ASSERT_EQ(a.moves.size(), 1u);
  std::lock_guard lock(mutex);
  EXPECT_EQ(variant, "crazyhouse");
  EXPECT_EQ(fen, start);
  EXPECT_EQ(authorization, "");
}

TEST(OpeningExplorer, ReportsAnHttpError) {
  test::TestServer server;
  server.server().Get("/lichess", [](const httplib::Request&, httplib::Response& res) {
    res.status = 429;
    res.set_content(R"({"error":"too many requests"})", "application/json");
  });
  server.start();
  HttpOpeningExplorer explorer(server.base_url() + "/lichess", Millis(10000));
  EXPECT_EQ(explorer.query("8/8/8/8/8/8/8/K6k/ w - - 0 1").error, "HTTP 429");
}

TEST(OpeningExplorer, ReportsAServerThatNeverAnswers) {
  // A listening socket that nobody accepts from: the connection is made (the kernel's backlog)
  // and no answer ever comes, whatever the machine's load, so only the explorer's timeout ends
  // the query.
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), len), 0);
  ASSERT_EQ(::listen(fd, 4), 0);
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  const std::string url = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port)) + "/lichess";
  HttpOpeningExplorer explorer(url, Millis(200));
  const ExplorerAnswer timed_out = explorer.query("8/8/8/8/8/8/8/K6k/ w - - 0 1");
  ::close(fd);
  EXPECT_NE(timed_out.error.find("no answer"), std::string::npos) << timed_out.error;
}

}  // namespace
}  // namespace zh::bot
