// Human-facing timing on the wire (issue 6 §2.11): against humans the move times vary by about
// +-10% (paper eq. 9) and none is under the minimum think time; against bots no delay is added.
#include <algorithm>

#include "tests/e2e/e2e_fixture.h"

namespace zh::e2e {
namespace {

using E2eTiming = E2eTest;

double median(std::vector<long> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : double(v[v.size() / 2]);
}

TEST_F(E2eTiming, AgainstAHumanMoveTimesVaryByAboutTenPercentAboveTheMinimum) {
  start_emulator();
  BotSettings s = settings();
  // A nearly constant budget: ~60 s / 500 + 0.7 * 1 s - 0.1 s = ~0.72 s per move, spent in
  // full (no tree cap, no early stop on easy moves, no extension, no solver shortcut).
  s.without_mate_search()
      .set("search", "max_tree_nodes", "0")
      .set("time", "expected_game_length", "500")
      .set("time", "late_game_move", "499")
      .set("time", "easy_move_fraction", "1.0")
      .set("time", "critical_extension", "0")
      .set("time", "time_jitter", "0.1")
      .set("game", "human_min_think_ms", "200");
  start_connected_bot(s);
  // A random mover can be mated within a few moves, so games are played one after another
  // until enough move times are pooled.
  std::vector<long> times;
  for (int game = 0; game < 5 && times.size() < 9; ++game) {
    const Json opponent = {{"type", "random"}, {"delay_ms", 50}, {"resign_at_ply", 17}};
    Json spec = challenge_spec("Sue" + std::to_string(game), false, opponent, 60, 1);
    spec["color"] = "black";  // the bot is White
    const std::string id = accepted_game(emu_->challenge(spec));
    ASSERT_FALSE(id.empty());
    const Json g = expect_clean_finish(id, 60s);
    for (long t : bot_move_times_ms(g)) times.push_back(t);
  }
  ASSERT_GE(times.size(), 9u);
  for (long t : times) EXPECT_GE(t, 200) << "a move came faster than the minimum think time";
  // A move with one legal reply is answered at the minimum; the rest follow the budget.
  const double m = median(times);
  std::vector<long> budgeted;
  for (long t : times)
    if (t > m / 2) budgeted.push_back(t);
  ASSERT_GE(budgeted.size(), 7u);
  const auto [lo, hi] = std::minmax_element(budgeted.begin(), budgeted.end());
  // Only a floor on the wire: a loaded machine can only make a move slower (one search starved
  // beside other jobs ran 2.5x its budget), so the jitter's upper bound is held on the planned
  // targets instead (TimeManager.JitterOnlyAgainstHumansSeededAndBounded), not here.
  for (long t : budgeted)
    EXPECT_GT(t, 0.75 * m) << "a move time is further than the jitter from the median " << m;
  // Uniform jitter of +-10% over 7+ moves: all within 4% of each other has probability < 1e-3.
  EXPECT_GT(double(*hi) / double(*lo), 1.04)
      << "the move times do not vary: min " << *lo << " ms, max " << *hi << " ms";
  EXPECT_GT(m, 450) << "the budget was not spent (early stop?)";
}

TEST_F(E2eTiming, TheMinimumThinkTimeIsForHumansOnlyBotsGetNoDelay) {
  start_emulator();
  BotSettings s = settings();  // a small tree per move: the search itself takes a few ms
  s.set("game", "human_min_think_ms", "800").set("challenge", "max_concurrent_games", "2");
  start_connected_bot(s);
  Json human = challenge_spec("Tom", false, {{"type", "random"}, {"resign_at_ply", 13}}, 60, 1);
  human["color"] = "black";
  Json bot = challenge_spec("Uma", true, {{"type", "random"}, {"resign_at_ply", 13}}, 60, 1);
  bot["color"] = "black";
  const std::string human_game = accepted_game(emu_->challenge(human));
  const std::string bot_game = accepted_game(emu_->challenge(bot));
  ASSERT_FALSE(human_game.empty());
  ASSERT_FALSE(bot_game.empty());
  const std::vector<long> vs_human = bot_move_times_ms(expect_clean_finish(human_game, 60s));
  const std::vector<long> vs_bot = bot_move_times_ms(expect_clean_finish(bot_game, 60s));
  // A random mover may be mated early: a few moves suffice for these checks.
  ASSERT_GE(vs_human.size(), 3u);
  ASSERT_GE(vs_bot.size(), 3u);
  for (long t : vs_human) EXPECT_GE(t, 800) << "against a human, a move came before 800 ms";
  // A bot held to the floor never moves under it; load only makes moves slower, so the fastest
  // move is the one to look at (no ceiling on a median under a loaded machine).
  EXPECT_LT(*std::min_element(vs_bot.begin(), vs_bot.end()), 800)
      << "against a bot every move waited for the humans' 800 ms";
}

}  // namespace
}  // namespace zh::e2e
