// The exit codes an operator (and systemd's RestartPreventExitStatus=) acts on, from the real
// `zhbot run` (README "Operations"): 78 when the configuration or token is wrong, 69 when
// lichess cannot be reached at start. A clean drain exits 0 (e2e_lifecycle_test.cpp); a token
// the server refuses exits 78 (e2e_token_test.cpp).
#include <fstream>

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

#ifdef ZH_E2E_WITH_TORCH
// A public account must not quietly play a far weaker game: a configured network that cannot
// be loaded stops the daemon before it logs in, naming the file and the problem.
TEST_F(E2eExitCode, AModelThatCannotBeLoadedExits78NamingTheFile) {
  start_emulator();
  const std::filesystem::path corrupt = dir_ / "corrupt-net.pt";
  std::ofstream(corrupt) << "not a TorchScript archive";
  for (const std::filesystem::path& model : {dir_ / "missing-net.pt", corrupt}) {
    BotSettings s = settings();
    s.set("evaluator", "backend", "torch").set_quoted("evaluator", "model", model.string());
    BotProcess& bot = start_bot(s);
    const ExitStatus status = exit_of(bot);
    EXPECT_TRUE(status.exited && status.code == kExitConfig) << status.describe();
    EXPECT_NE(bot.log().find(model.string()), std::string::npos) << bot.log();
    EXPECT_NE(bot.log().find("evaluator.fallback"), std::string::npos) << bot.log();
    EXPECT_EQ(bot.log().find("logged in"), std::string::npos) << "it logged in:\n" << bot.log();
  }
}

// ... unless the operator asked for the old behaviour: then it plays, after a loud warning.
TEST_F(E2eExitCode, TheMaterialFallbackIsAnExplicitChoice) {
  start_emulator();
  BotSettings s = settings();
  s.set("evaluator", "backend", "torch")
      .set_quoted("evaluator", "model", (dir_ / "missing-net.pt").string())
      .set("evaluator", "fallback", "material");
  BotProcess& bot = start_bot(s);
  EXPECT_TRUE(bot.wait_log("logged in", 30s)) << bot.log();
  EXPECT_NE(bot.log().find("FALLING BACK TO THE MATERIAL EVALUATOR"), std::string::npos)
      << bot.log();
  EXPECT_TRUE(bot.process().running()) << bot.log();
}
#endif

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
