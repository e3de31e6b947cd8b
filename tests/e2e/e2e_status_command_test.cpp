// `zhbot status` against the real daemon (issue 66): the running game, its exit code while
// healthy, unhealthy and gone; and a flood of requests to the status server on loopback that
// must not stop the bot playing.
#include <httplib.h>

#include <atomic>
#include <thread>

#include "tests/e2e/e2e_fixture.h"
#include "tests/support/test_paths.h"

namespace zh::e2e {
namespace {

class E2eStatusCommand : public E2eTest {
 protected:
  // Runs `zhbot status` with `args`; its output goes to status-N.log (read into `output`).
  ExitStatus status(const std::vector<std::string>& args, std::string& output) {
    const auto log = dir_ / ("status-" + std::to_string(++runs_) + ".log");
    std::vector<std::string> argv = {zh::test::zhbot_bin(), "status"};
    argv.insert(argv.end(), args.begin(), args.end());
    ChildProcess cmd(argv, harness_child(log));
    const auto exit = cmd.wait_exit(60s);
    output = read_text(log);
    return exit ? *exit : cmd.stop();
  }

  static bool exited_with(const ExitStatus& s, int code) { return s.exited && s.code == code; }

  BotProcess& start_with_status_port() {
    port_ = free_loopback_port();
    EXPECT_GT(port_, 0);
    return start_bot(settings().set("operations", "metrics_port", std::to_string(port_)));
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  int port_ = 0;
  int runs_ = 0;
};

TEST_F(E2eStatusCommand, ShowsTheGameExitsZeroWhileHealthyAndTwoOnceTheDaemonIsGone) {
  start_emulator();
  BotProcess& bot = start_with_status_port();
  ASSERT_TRUE(bot.wait_log("event stream connected", 30s)) << bot.log();
  // Slow enough (about 15 s) that the game is still on after two `zhbot status` runs, however
  // slow the build (under ASan the game once ended before the second).
  const Json slow = {{"type", "random"}, {"resign_at_ply", 30}, {"delay_ms", 1000}};
  const std::string game = accepted_game(emu_->challenge(challenge_spec("Ann", false, slow, 300)));
  ASSERT_FALSE(game.empty());
  emu_->wait_plies(game, 4, 60s);
  std::string out;
  // From the config the daemon runs with (its operations.metrics_port).
  ASSERT_TRUE(exited_with(status({"--config", (dir_ / "zhbot.yaml").string()}, out), 0)) << out;
  EXPECT_NE(out.find(": healthy"), std::string::npos) << out;
  EXPECT_NE(out.find("games (1)"), std::string::npos) << out;
  EXPECT_NE(out.find(game), std::string::npos) << out;
  EXPECT_NE(out.find("vs Ann (1600)"), std::string::npos) << out;
  EXPECT_NE(out.find("evaluator: material on cpu"), std::string::npos) << out;
  // --json gives the daemon's JSON as it is.
  ASSERT_TRUE(exited_with(status({"--url", url(), "--json"}, out), 0)) << out;
  const Json j = Json::parse(out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << out;
  ASSERT_EQ(j["games"].size(), 1u);
  EXPECT_EQ(j["games"][0]["id"], game);
  EXPECT_GE(j["games"][0]["board"]["plies"].get<int>(), 4);
  // Something else on that address is not a zhbot: the emulator has no /status.json.
  EXPECT_TRUE(exited_with(status({"--url", emu_->base_url()}, out), 3)) << out;
  expect_clean_finish(game, 120s);
  stop_now(bot);
  EXPECT_TRUE(exited_with(status({"--url", url()}, out), 2)) << out;
  EXPECT_NE(out.find("no answer"), std::string::npos) << out;
}

TEST_F(E2eStatusCommand, UnhealthyWhileLichessRefusesTheEventStream) {
  start_emulator();
  emu_->add_faults({{"target", "event_stream"}, {"status", 503}, {"count", 100000}});
  BotProcess& bot = start_with_status_port();
  ASSERT_TRUE(bot.wait_log("event stream lost", 30s)) << bot.log();
  std::string out;
  EXPECT_TRUE(exited_with(status({"--url", url()}, out), 1)) << out;
  EXPECT_NE(out.find("UNHEALTHY"), std::string::npos) << out;
  EXPECT_NE(out.find("event stream: DOWN"), std::string::npos) << out;
  EXPECT_NE(out.find("HTTP 503"), std::string::npos) << "the last error" << out;
}

// 2000 requests from four threads on loopback while a game is played: every one is answered as
// it should be, and the game ends cleanly (no move lost or sent twice, no loss on time).
TEST_F(E2eStatusCommand, AFloodOfRequestsDoesNotStopTheBotPlaying) {
  start_emulator();
  BotProcess& bot = start_with_status_port();
  ASSERT_TRUE(bot.wait_log("event stream connected", 30s)) << bot.log();
  const Json quick = {{"type", "random"}, {"resign_at_ply", 40}, {"delay_ms", 50}};
  const std::string game = accepted_game(emu_->challenge(challenge_spec("Ann", false, quick, 60)));
  ASSERT_FALSE(game.empty());
  std::atomic<int> wrong{0}, answered{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < 4; ++t) {
    clients.emplace_back([&, t] {
      httplib::Client client("127.0.0.1", port_);
      client.set_read_timeout(30s);
      const char* paths[] = {"/status.json", "/status", "/metrics", "/nothing-here"};
      for (int i = 0; i < 500; ++i) {
        const std::string path = paths[(t + i) % 4];
        const auto res = client.Get(path);
        if (!res) continue;
        ++answered;
        if (res->status != (path == "/nothing-here" ? 404 : 200)) ++wrong;
      }
    });
  }
  for (auto& c : clients) c.join();
  EXPECT_EQ(answered.load(), 2000);
  EXPECT_EQ(wrong.load(), 0);
  expect_clean_finish(game, 120s);
}

}  // namespace
}  // namespace zh::e2e
