// The exit codes an operator (and systemd's RestartPreventExitStatus=) acts on, from the real
// `zhbot run` (README "Operations"): 78 when the configuration or token is wrong, 69 when
// lichess cannot be reached at start. A clean drain exits 0 (e2e_lifecycle_test.cpp); a token
// the server refuses exits 78 (e2e_token_test.cpp).
#include "tests/e2e/e2e_fixture.h"

namespace zh::e2e {
namespace {

using E2eExitCode = E2eTest;

constexpr int kExitUnavailable = 69;
constexpr int kExitConfig = 78;

ExitStatus exit_of(BotProcess& bot) {
  const auto status = bot.process().wait_exit(30s);
  EXPECT_TRUE(status.has_value()) << "the daemon did not stop:\n" << bot.log();
  return status.value_or(ExitStatus{});
}

TEST_F(E2eExitCode, AnInvalidConfigurationValueExits78) {
  start_emulator();
  BotProcess& bot = start_bot(settings().set("challenge", "max_concurrent_games", "999"));
  const ExitStatus status = exit_of(bot);
  EXPECT_TRUE(status.exited && status.code == kExitConfig) << status.describe();
  EXPECT_NE(bot.log().find("max_concurrent_games"), std::string::npos) << bot.log();
  EXPECT_EQ(bot.log().find("logged in"), std::string::npos) << "a bad config still logged in";
}

TEST_F(E2eExitCode, AMissingTokenExits78) {
  start_emulator();
  BotProcess& bot = start_bot(settings(), "");
  const ExitStatus status = exit_of(bot);
  EXPECT_TRUE(status.exited && status.code == kExitConfig) << status.describe();
  EXPECT_NE(bot.log().find("LICHESS_BOT_TOKEN"), std::string::npos) << bot.log();
}

TEST_F(E2eExitCode, LichessUnreachableAtStartExits69) {
  start_emulator();  // the fixture's directory and teardown; the bot is pointed elsewhere
  BotSettings s = settings();
  s.set("lichess", "base_url", "\"http://127.0.0.1:1\"");  // nothing listens on port 1
  BotProcess& bot = start_bot(s);
  const ExitStatus status = exit_of(bot);
  EXPECT_TRUE(status.exited && status.code == kExitUnavailable) << status.describe();
  EXPECT_NE(bot.log().find("cannot read the account"), std::string::npos) << bot.log();
}

TEST_F(E2eExitCode, LichessAnswering503AtStartExits69) {
  start_emulator();
  emu_->add_faults({{"rules", {{{"target", "account"}, {"status", 503}, {"count", 10}}}}});
  BotProcess& bot = start_bot(settings());
  const ExitStatus status = exit_of(bot);
  EXPECT_TRUE(status.exited && status.code == kExitUnavailable) << status.describe();
}

}  // namespace
}  // namespace zh::e2e
