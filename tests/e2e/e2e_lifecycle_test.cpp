// The daemon's life on the wire (issue 6 §2.6, §2.7): a graceful drain on SIGTERM, and a game
// resumed by a fresh process after kill -9.
#include <signal.h>

#include <filesystem>

#include "tests/e2e/e2e_fixture.h"

namespace zh::e2e {
namespace {

using E2eLifecycle = E2eTest;

Json slow_engine_game(const std::string& user) {
  // The opponent takes its time, so the game outlives the steps of the test.
  Json opponent = engine_opponent(0, 30);
  opponent["delay_ms"] = 150;
  return challenge_spec(user, true, opponent, 60, 0);
}

bool opponent_to_move(const Json& game) {
  const bool bot_white = game.value("bot_color", "") == "white";
  return (game.value("plies", 0) % 2 == 1) == bot_white;
}

TEST_F(E2eLifecycle, SigtermDeclinesNewChallengesFinishesTheGameAndExitsZero) {
  start_emulator();
  BotProcess& bot = start_connected_bot(settings());
  const std::string id = accepted_game(emu_->challenge(slow_engine_game("Pia")));
  ASSERT_FALSE(id.empty());
  emu_->wait_plies(id, 4, 20s);
  // The opponent steps away (its clock runs, no claim for ten minutes), so the game cannot end
  // while the test looks at the drain, however slowly the machine plays. Leaving drops a move
  // the opponent was still thinking about.
  emu_->post("/admin/games/" + id + "/opponent", {{"action", "leave"}, {"claim_ms", 600'000}});
  ASSERT_TRUE(eventually([&] { return opponent_to_move(emu_->game(id)); }, 30s))
      << emu_->game(id).dump();
  ASSERT_FALSE(game_over(emu_->game(id))) << emu_->game(id).dump();
  bot.process().signal(SIGTERM);
  // The signal is handled on the daemon's own schedule: a challenge that comes in before it is
  // taken (a few ms on a loaded machine) is still accepted, as it would be on lichess. So the
  // late challenge is sent once the daemon says it drains.
  ASSERT_TRUE(bot.wait_log("shutdown requested", 30s)) << "SIGTERM was not taken";
  // Draining: a challenge that arrives now is declined for later, the game goes on.
  const std::string late = emu_->challenge(slow_engine_game("Quin"));
  EXPECT_TRUE(eventually(
      [&] { return emu_->challenge_state(late).value("declineReasonKey", "") == "later"; }, 30s))
      << emu_->challenge_state(late).dump();
  EXPECT_TRUE(bot.process().running()) << "the daemon left with a game running";
  const int bot_moves_at_term = emu_->game(id).value("bot_moves", 0);
  // The opponent comes back; once the bot has answered, it resigns, so the game ends soon.
  emu_->post("/admin/games/" + id + "/opponent", {{"action", "return"}});
  EXPECT_TRUE(eventually(
      [&] {
        const Json g = emu_->game(id);
        return game_over(g) || g.value("bot_moves", 0) > bot_moves_at_term;
      },
      60s))
      << "no move was played after SIGTERM: " << emu_->game(id).dump();
  if (!game_over(emu_->game(id)))
    emu_->post("/admin/games/" + id + "/opponent", {{"action", "resign"}});
  const auto status = bot.process().wait_exit(120s);
  ASSERT_TRUE(status.has_value()) << "the daemon did not exit after its game";
  EXPECT_TRUE(status->exited && status->code == 0) << status->describe();
  const Json g = emu_->game(id);
  EXPECT_TRUE(game_over(g)) << "the daemon exited before its game was over: " << g.dump();
  EXPECT_GT(g.value("bot_moves", 0), bot_moves_at_term) << "no move was played after SIGTERM";
  expect_clean_finish(id, 5s);
}

// Started by hand as the README shows, without OPENBLAS_NUM_THREADS: the math library's thread
// pool exists before the daemon blocks the stop signals, and the kernel may hand a signal to
// one of its threads. The daemon must still drain (log it, exit 0), not die of the signal.
TEST_F(E2eLifecycle, StopSignalsDrainAProcessStartedWithoutOpenblasNumThreads) {
  start_emulator();
  for (const int sig : {SIGTERM, SIGINT}) {
    BotProcess& bot = start_bot(settings(), kToken, {}, {"OPENBLAS_NUM_THREADS"});
    ASSERT_TRUE(bot.wait_log("event stream connected", 60s)) << bot.log();
    const std::string tasks = "/proc/" + std::to_string(bot.process().pid()) + "/task";
    int threads = 0;
    for ([[maybe_unused]] const auto& t : std::filesystem::directory_iterator(tasks)) ++threads;
    bot.process().signal(sig);
    const auto status = bot.process().wait_exit(60s);
    ASSERT_TRUE(status.has_value()) << "no exit after signal " << sig;
    EXPECT_TRUE(status->exited && status->code == 0)
        << "signal " << sig << " with " << threads << " threads: " << status->describe();
    EXPECT_EQ(bot.log_count("shutdown requested"), 1) << bot.log();
  }
}

TEST_F(E2eLifecycle, KillNineMidGameThenARestartResumesAndFinishesTheGame) {
  start_emulator();
  BotSettings s = settings();
  BotProcess& first = start_connected_bot(s);
  const std::string id = accepted_game(emu_->challenge(slow_engine_game("Rex")));
  ASSERT_FALSE(id.empty());
  emu_->wait_plies(id, 6, 20s);
  first.process().signal(SIGKILL);
  const auto killed = first.process().wait_exit(5s);
  ASSERT_TRUE(killed.has_value());
  EXPECT_TRUE(killed->signalled);
  const int bot_moves_before = emu_->game(id).value("bot_moves", 0);
  // The server keeps the game (and our clock runs) while no process plays it.
  start_bot(s);
  const Json g = expect_clean_finish(id, 120s);
  EXPECT_GT(g.value("bot_moves", 0), bot_moves_before) << "the restarted daemon never moved";
  EXPECT_GE(g.value("stream_opens", 0), 2);
  EXPECT_EQ(emu_->stats().value("games", 0), 1);
}

}  // namespace
}  // namespace zh::e2e
