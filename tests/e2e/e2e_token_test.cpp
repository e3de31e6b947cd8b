// The API token never appears in anything the bot prints (issue 6 §2.12). Every test's
// teardown greps that test's bot output for the token; this test adds the paths most likely to
// leak it: a rejected token, HTTP errors whose URLs and headers get logged at the most verbose
// level, JSON logs, and check-config printing the effective configuration.
#include <sstream>

#include "tests/e2e/e2e_fixture.h"
#include "tests/support/test_paths.h"

namespace zh::e2e {
namespace {

using E2eToken = E2eTest;

TEST_F(E2eToken, AWrongTokenIsRefusedWithoutBeingPrinted) {
  start_emulator();
  const std::string wrong = "lip_wrongTokenMustNotLeak4Vq8";
  BotProcess& bot = start_bot(settings().set("operations", "log_level", "trace"), wrong);
  const auto status = bot.process().wait_exit(60s);
  ASSERT_TRUE(status.has_value()) << "the daemon kept running with a token the server refuses";
  // The configuration code, so systemd does not restart it (RestartPreventExitStatus=78).
  EXPECT_TRUE(status->exited && status->code == 78) << status->describe();
  const std::string log = bot.log();
  EXPECT_EQ(log.find(wrong), std::string::npos) << "the rejected token was printed";
  EXPECT_NE(log.find("401"), std::string::npos) << "the refusal does not say what happened:\n"
                                                << log;
}

TEST_F(E2eToken, TheTokenIsNotInTraceLogsJsonLogsErrorsPgnsOrCheckConfig) {
  start_emulator();
  emu_->add_faults({{"rules",
                     {{{"target", "account"}, {"status", 503}, {"count", 1}},
                      {{"target", "challenge_accept"}, {"status", 500}, {"count", 1}},
                      {{"target", "chat"}, {"status", 429}, {"ratelimit_seconds", 1}, {"count", 2}},
                      {{"target", "game_stream"}, {"status", 502}, {"count", 1}},
                      {{"target", "move"}, {"status", 400}, {"skip", 2}, {"count", 1}}}}});
  BotSettings s = settings();
  s.set("operations", "log_level", "trace").set("operations", "log_format", "json");
  BotProcess& bot = start_connected_bot(s);
  const std::string id = accepted_game(emu_->challenge(
      challenge_spec("Vic", true, {{"type", "random"}, {"resign_at_ply", 20}}, 60, 0)));
  ASSERT_FALSE(id.empty());
  const Json g = emu_->wait_finished(id, 60s);
  EXPECT_TRUE(game_over(g)) << g.dump();
  EXPECT_EQ(g.value("duplicate_moves", -1), 0);
  EXPECT_TRUE(bot.process().running());
  EXPECT_GT(bot.log().size(), 1000u) << "trace logging produced almost nothing";

  // check-config with the token in the environment prints the configuration, not the token.
  const auto out = dir_ / "check-config.log";
  ChildProcess check(
      {zh::test::zhbot_bin(), "check-config", "--config", (dir_ / "zhbot.yaml").string()},
      harness_child(out, {{"LICHESS_BOT_TOKEN", kToken}}));
  const auto status = check.wait_exit(20s);
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(status->exited && status->code == 0) << status->describe() << "\n" << read_text(out);
  EXPECT_NE(read_text(out).find("base_url"), std::string::npos) << read_text(out);
  // The teardown greps zhbot.log, the PGN and check-config.log for the token.
}

TEST_F(E2eToken, TheRunningDaemonKeepsTheTokenOutOfCmdlineEnvironAndCoreDumps) {
  start_emulator();
  BotProcess& bot = start_bot(settings());
  ASSERT_TRUE(bot.wait_log("event stream connected", 60s)) << bot.log();
  const auto proc = std::filesystem::path("/proc") / std::to_string(bot.process().pid());
  // Other users can read any process's arguments.
  const std::string cmdline = read_text(proc / "cmdline");
  ASSERT_FALSE(cmdline.empty());
  EXPECT_EQ(cmdline.find(kToken), std::string::npos) << "the token is on the command line";
  // The environment is what every child process inherits and what environ shows; the daemon
  // wipes the variable once it has read it. (A non-dumpable process's environ is readable by
  // root only; unreadable counts as not exposed.)
  const std::string environ = read_text(proc / "environ");
  EXPECT_EQ(environ.find(kToken), std::string::npos) << "the token is still in the environment";
  if (!environ.empty()) {
    EXPECT_NE(environ.find("OPENBLAS_NUM_THREADS=1"), std::string::npos) << "not the environ";
  }
  // No core file can be written, whatever the system's core_pattern.
  const std::string limits = read_text(proc / "limits");
  const auto core = limits.find("Max core file size");
  ASSERT_NE(core, std::string::npos) << limits;
  std::istringstream line(limits.substr(core + std::string("Max core file size").size()));
  std::string soft, hard;
  line >> soft >> hard;
  EXPECT_EQ(soft, "0");
  EXPECT_EQ(hard, "0");
  stop_now(bot);
}

}  // namespace
}  // namespace zh::e2e
