// A device that fails in the middle of a game (issue 30 §6), with the simulated accelerator's
// failure injection: the game goes on with the fallback evaluator and ends cleanly, the log says
// so, and a new challenge is declined with `later` while the device is down.
#include <set>

#include "tests/e2e/e2e_fixture.h"

namespace zh::e2e {
namespace {

using E2eFailover = E2eTest;

TEST_F(E2eFailover, AFailingDeviceMovesTheGameToTheFallbackAndDeclinesNewChallenges) {
  start_emulator();
  BotSettings s = settings();
  // The sim fails from its 20th batch on and is not tried again during the test.
  s.set("evaluator", "backend", "sim")
      .set("evaluator", "backend_options", "fixed_us=200,per_position_us=5,fail_after=20")
      .set("evaluator", "failover_retry_ms", "600000")
      .set("challenge", "max_concurrent_games", "2");
  BotProcess& bot = start_connected_bot(s);
  Json spec = challenge_spec("Fairy", true, engine_opponent(0, 40), 60, 0);
  spec["initial_ms"] = 15000;
  const std::string id = accepted_game(emu_->challenge(spec));
  ASSERT_FALSE(id.empty());
  ASSERT_TRUE(bot.wait_log("FAILED (sim: injected device failure", 60s)) << bot.log();
  EXPECT_NE(bot.log().find("running games go on with 'material'"), std::string::npos);

  // A free game slot, but the device is down: later.
  const std::string next = emu_->challenge(challenge_spec("Nia", false, engine_opponent(), 180, 0));
  EXPECT_EQ(declined_reason(next), "later");

  const Json g = expect_clean_finish(id, 120s);
  const std::set<std::string> normal_ends = {"mate", "resign", "outoftime", "draw", "stalemate"};
  EXPECT_TRUE(normal_ends.count(g.value("status", ""))) << g.dump();
  const std::string mine = g.value("bot_color", "") == "white" ? "wtime" : "btime";
  EXPECT_GT(g.value(mine, 0), 0) << "our clock ran out: the game stalled";
  EXPECT_EQ(bot.log().find("engine gave no move"), std::string::npos) << bot.log();
  EXPECT_TRUE(bot.process().running());
}

}  // namespace
}  // namespace zh::e2e
