// Whole games on the wire: one against Fairy-Stockfish with the real time manager and the
// shipped network (issue 6 §2.1, issue 11), and three at once sharing the daemon's one
// evaluator (§2.10).
#include <set>

#include "engine/evaluator_loader.h"
#include "tests/e2e/e2e_fixture.h"

namespace zh::e2e {
namespace {

using E2eGame = E2eTest;

TEST_F(E2eGame, FullGameAgainstFairyStockfishEndsCleanlyWithAPgn) {
  start_emulator();
  BotSettings s = settings();
  // The real clock-driven budget (no tree cap), pondering on and the shipped evaluator: the
  // full production path.
  s.set("search", "max_tree_nodes", "0").set("game", "ponder", "on").shipped_evaluator();
  BotProcess& bot = start_connected_bot(s);
#ifdef ZH_E2E_WITH_TORCH
  EXPECT_TRUE(bot.wait_log("nn: loaded", 60s)) << bot.log();
  // The network zhbot ships (its built-in default), whichever that is.
  EXPECT_NE(bot.log().find(default_evaluator_config().setting("model")), std::string::npos)
      << bot.log();
#endif
  Json spec = challenge_spec("Fairy", true, engine_opponent(0, 40), 60, 0);
  spec["initial_ms"] = 15000;
  const std::string id = accepted_game(emu_->challenge(spec));
  ASSERT_FALSE(id.empty());
  const Json g = expect_clean_finish(id, 120s);
  const std::set<std::string> normal_ends = {"mate", "resign", "outoftime", "draw", "stalemate"};
  EXPECT_TRUE(normal_ends.count(g.value("status", ""))) << g.dump();
  EXPECT_GE(g.value("plies", 0), 4);
  const std::string mine = g.value("bot_color", "") == "white" ? "wtime" : "btime";
  EXPECT_GT(g.value(mine, 0), 0) << "our clock ran out";
  // The greeting went to the player room once; the goodbye followed the end.
  int greetings = 0;
  for (const auto& line : g["chat"])
    if (line.value("user", "") == "zhbot" && line.value("room", "") == "player") ++greetings;
  EXPECT_GE(greetings, 1) << g["chat"].dump();
  EXPECT_TRUE(bot.process().running()) << "the daemon exited after the game";
}

TEST_F(E2eGame, ThreeGamesAtOnceShareOneEvaluatorAndNoneFlags) {
  start_emulator();
  BotSettings s = settings();
  // The real clock-driven budget (no tree cap) and pondering on: three searches and three
  // Fairy-Stockfish processes share two cores, and the time manager must still keep every
  // clock above zero.
  s.set("challenge", "max_concurrent_games", "3")
      .set("search", "max_tree_nodes", "0")
      .set("game", "ponder", "on")
      .set("game", "ponder_single_game_only", "false");
  BotProcess& bot = start_bot(s);
  // Challenge once the bot listens: on a loaded machine its start-up (the network's load
  // included) can take longer than the wait for an answer to a challenge.
  ASSERT_TRUE(bot.wait_log("event stream connected", 60s)) << bot.log();
  std::vector<std::string> challenges;
  for (const char* user : {"Ann", "Bob", "Cid"}) {
    Json spec = challenge_spec(user, true, engine_opponent(0, 30), 60, 0);
    spec["initial_ms"] = 20000;
    challenges.push_back(emu_->challenge(spec));
  }
  std::vector<std::string> games;
  for (const auto& c : challenges) games.push_back(accepted_game(c));
  for (const auto& id : games) ASSERT_FALSE(id.empty());
  // All three run at the same time: a moment where each is under way with moves played.
  EXPECT_TRUE(eventually(
      [&] {
        for (const auto& id : games) {
          const Json g = emu_->game(id);
          if (g.value("status", "") != "started" || g.value("plies", 0) < 2) return false;
        }
        return true;
      },
      20s, 20ms))
      << "the three games never ran at the same time";
  for (const auto& id : games) expect_clean_finish(id, 120s);
  EXPECT_EQ(emu_->stats().value("bot_lost_on_time", -1), 0);
}

}  // namespace
}  // namespace zh::e2e
