// The stop rules on synthetic times and search figures: every rule, without a search or a clock.
#include "engine/time/stop_rules.h"

#include <gtest/gtest.h>

#include "engine/search/move_choice.h"

namespace zh {
namespace {

using std::chrono::milliseconds;

const TimePoint kStart{milliseconds(1'000'000)};
TimePoint at(std::int64_t ms) { return kStart + milliseconds(ms); }

// The formulas of time_manager_test: a 50-move game, 70% of the increment.
TimeParams formula_params() {
  TimeParams p = TimeParams::defaults();
  p.expected_game_length = 50;
  p.increment_factor = 0.7;
  return p;
}

// White's first move at 3+2: target 180000 / 50 + 1400 - 300 = 4700 ms, max 7050 ms.
SearchLimits blitz() {
  SearchLimits l;
  l.wtime = 180000;
  l.btime = 180000;
  l.winc = 2000;
  l.binc = 2000;
  return l;
}

const MoveContext kFirstMove{kWhite, 0, 30};

SearchFigures tree(double top_prior, bool top_is_best, double best_q) {
  SearchFigures f;
  f.top_prior = top_prior;
  f.top_prior_is_best = top_is_best;
  f.best_q = best_q;
  return f;
}

const SearchFigures kPlain = tree(0.2, true, 0.1);

TEST(StopRules, ATimedSearchStopsAtItsTargetAndSaysWhenToLookAgain) {
  StopRules rules(formula_params(), 1);
  rules.begin(blitz(), kFirstMove, kStart);
  EXPECT_EQ(rules.budget().target_ms, 4700);
  // Nothing can stop it before the easy-move limit (half the target): it sleeps until then.
  StopVerdict v = rules.check(kPlain, at(0));
  EXPECT_FALSE(v.stop);
  EXPECT_EQ(v.recheck_at, at(2350));
  // Then every 1/100 of the target, to the target.
  v = rules.check(kPlain, at(2350));
  EXPECT_FALSE(v.stop);
  EXPECT_EQ(v.recheck_at, at(2397));
  EXPECT_FALSE(rules.check(kPlain, at(4699)).stop);
  EXPECT_TRUE(rules.check(kPlain, at(4700)).stop);
}

TEST(StopRules, AnEasyMoveStopsAtHalfTheTarget) {
  StopRules rules(formula_params(), 1);
  rules.begin(blitz(), kFirstMove, kStart);
  const SearchFigures easy = tree(0.95, true, 0.1);
  EXPECT_FALSE(rules.check(easy, at(2349)).stop);
  EXPECT_TRUE(rules.check(easy, at(2350)).stop);
  // The favourite must still be best by Q, and be the favourite by far.
  EXPECT_FALSE(rules.check(tree(0.95, false, 0.1), at(2350)).stop);
  EXPECT_FALSE(rules.check(tree(0.85, true, 0.1), at(2350)).stop);
  // Before the tree has a best move nothing is easy.
  SearchFigures unknown = easy;
  unknown.best_q.reset();
  EXPECT_FALSE(rules.check(unknown, at(2350)).stop);
}

TEST(StopRules, ACriticalMoveRunsToTheMaximumAndOnlyAfterOurOwnMove) {
  StopRules rules(formula_params(), 1);
  rules.begin(blitz(), kFirstMove, kStart);
  // No previous move: nothing is critical.
  EXPECT_TRUE(rules.check(tree(0.2, true, -0.9), at(4700)).stop);
  rules.end(0.5);  // we played a move worth 0.5
  rules.begin(blitz(), kFirstMove, kStart);
  const SearchFigures dropped = tree(0.2, true, 0.25);  // fell by 0.25: critical
  EXPECT_FALSE(rules.check(dropped, at(4700)).stop);
  EXPECT_FALSE(rules.check(dropped, at(7049)).stop);
  EXPECT_TRUE(rules.check(dropped, at(7050)).stop);
  EXPECT_TRUE(rules.check(tree(0.2, true, 0.45), at(4700)).stop);  // fell by less
  // An infinite search (analysis, the bot's ponder) is not our move: its value is not kept.
  SearchLimits infinite;
  infinite.infinite = true;
  rules.begin(infinite, kFirstMove, kStart);
  rules.end(-0.9);
  rules.begin(blitz(), kFirstMove, kStart);
  EXPECT_FALSE(rules.check(dropped, at(4700)).stop);
  // A new game forgets it.
  rules.new_game();
  rules.begin(blitz(), kFirstMove, kStart);
  EXPECT_TRUE(rules.check(dropped, at(4700)).stop);
}

TEST(StopRules, AContestedMoveRunsOnToItsOwnExtensionWhenThatIsOn) {
  TimeParams p = formula_params();
  p.contested_extension = 1.0;  // to twice the target; the critical extension stays 0.5
  StopRules rules(p, 1);
  rules.begin(blitz(), kFirstMove, kStart);
  EXPECT_EQ(rules.budget().target_ms, 4700);
  EXPECT_EQ(rules.budget().max_ms, 9400);  // room for the larger extension
  SearchFigures contested = kPlain;
  contested.challenger_share = 0.5;  // a move with half the visits looks better
  EXPECT_FALSE(rules.check(contested, at(4700)).stop);
  EXPECT_FALSE(rules.check(contested, at(9399)).stop);
  EXPECT_TRUE(rules.check(contested, at(9400)).stop);
  // A challenger with fewer visits than contested_share (0.3) is noise: the target holds.
  SearchFigures noise = kPlain;
  noise.challenger_share = 0.2;
  EXPECT_TRUE(rules.check(noise, at(4700)).stop);
  EXPECT_TRUE(rules.check(kPlain, at(4700)).stop);
  // An easy move that the search contests is not easy.
  SearchFigures easy_but_contested = tree(0.95, true, 0.1);
  easy_but_contested.challenger_share = 0.5;
  EXPECT_FALSE(rules.check(easy_but_contested, at(2350)).stop);
  EXPECT_FALSE(rules.check(easy_but_contested, at(4700)).stop);
  // A critical move keeps its own, shorter extension.
  rules.end(0.5);
  rules.begin(blitz(), kFirstMove, kStart);
  const SearchFigures dropped = tree(0.2, true, 0.25);
  EXPECT_FALSE(rules.check(dropped, at(7049)).stop);
  EXPECT_TRUE(rules.check(dropped, at(7050)).stop);
}

TEST(StopRules, TheContestedRuleIsOffByDefault) {
  StopRules rules(formula_params(), 1);
  rules.begin(blitz(), kFirstMove, kStart);
  EXPECT_EQ(rules.budget().max_ms, 7050);
  SearchFigures contested = kPlain;
  contested.challenger_share = 1.0;
  EXPECT_FALSE(rules.is_contested(1.0));
  EXPECT_TRUE(rules.check(contested, at(4700)).stop);
}

TEST(StopRules, InfiniteWaitsForStopWhateverHappens) {
  StopRules rules(formula_params(), 1);
  SearchLimits l = blitz();
  l.infinite = true;
  rules.begin(l, kFirstMove, kStart);
  SearchFigures finished = kPlain;
  finished.finished = true;
  for (const SearchFigures& f : {kPlain, finished}) {
    const StopVerdict v = rules.check(f, at(1'000'000));
    EXPECT_FALSE(v.stop);
    EXPECT_FALSE(v.recheck_at);  // only an event can change that
  }
  EXPECT_FALSE(rules.watches_tree());
}

TEST(StopRules, PonderWaitsForPonderhitThenTheClockCountsFromIt) {
  StopRules rules(formula_params(), 1);
  SearchLimits l = blitz();
  l.ponder = true;
  rules.begin(l, kFirstMove, kStart);
  EXPECT_TRUE(rules.pondering());
  EXPECT_FALSE(rules.watches_tree());
  SearchFigures finished = kPlain;
  finished.finished = true;
  EXPECT_FALSE(rules.check(kPlain, at(100'000)).stop);
  EXPECT_FALSE(rules.check(finished, at(100'000)).stop);
  rules.ponderhit(at(100'000));
  EXPECT_FALSE(rules.pondering());
  EXPECT_TRUE(rules.watches_tree());
  EXPECT_FALSE(rules.check(kPlain, at(104'699)).stop);
  EXPECT_TRUE(rules.check(kPlain, at(104'700)).stop);
  rules.ponderhit(at(200'000));  // a second one changes nothing
  EXPECT_TRUE(rules.check(kPlain, at(104'700)).stop);
}

TEST(StopRules, ASearchThatEndedStopsButKeepsTheHumanMinimum) {
  StopRules rules(formula_params(), 1);
  SearchFigures finished;
  finished.finished = true;
  SearchLimits l = blitz();
  rules.begin(l, kFirstMove, kStart);
  EXPECT_TRUE(rules.check(finished, at(0)).stop);
  l.human_opponent = true;
  l.min_think_ms = 800;
  rules.begin(l, kFirstMove, kStart);
  const StopVerdict v = rules.check(finished, at(10));
  EXPECT_FALSE(v.stop);
  EXPECT_EQ(v.recheck_at, at(800));
  EXPECT_TRUE(rules.check(finished, at(800)).stop);
  // Untimed (a node count): it ends with the search.
  SearchLimits nodes;
  nodes.nodes = 100;
  rules.begin(nodes, kFirstMove, kStart);
  EXPECT_TRUE(rules.check(finished, at(0)).stop);
  EXPECT_FALSE(rules.check(kPlain, at(1'000'000)).stop);
  EXPECT_FALSE(rules.check(kPlain, at(1'000'000)).recheck_at);
}

TEST(StopRules, TheHumanMinimumHoldsForTheClockRulesToo) {
  StopRules rules(formula_params(), 1);
  SearchLimits l;
  l.movetime = 1000;  // target 700 ms
  l.human_opponent = true;
  l.min_think_ms = 600;
  rules.begin(l, kFirstMove, kStart);
  // Easy at 350 ms would stop, but not before the minimum.
  const SearchFigures easy = tree(0.95, true, 0.1);
  const StopVerdict v = rules.check(easy, at(0));
  EXPECT_FALSE(v.stop);
  EXPECT_EQ(v.recheck_at, at(600));
  EXPECT_FALSE(rules.check(easy, at(599)).stop);
  EXPECT_TRUE(rules.check(easy, at(600)).stop);
}

TEST(StopRules, NextCheckIsTheNextThresholdThenEveryHundredthOfTheTarget) {
  StopRules rules(formula_params(), 1);
  rules.begin(blitz(), kFirstMove, kStart);  // target 4700, max 7050
  EXPECT_EQ(rules.next_check_ms(0), 2350);
  EXPECT_EQ(rules.next_check_ms(2349), 2350);
  EXPECT_EQ(rules.next_check_ms(2350), 2397);
  EXPECT_EQ(rules.next_check_ms(7040), 7050);
  // A short target checks every 5 ms: 1.5 s left at move 45 plans the 20 ms minimum.
  SearchLimits bullet;
  bullet.wtime = 1500;
  bullet.btime = 1500;
  rules.begin(bullet, MoveContext{kWhite, 45, 30}, kStart);
  EXPECT_EQ(rules.budget().target_ms, 20);
  EXPECT_EQ(rules.next_check_ms(10), 15);
}

// A search making 2 playouts a ms whose closest rival needs `gap` visits to change the move.
SearchFigures decided_tree(std::uint32_t gap, std::int64_t elapsed_ms) {
  SearchFigures f = kPlain;
  f.visits_to_change = gap;
  f.playouts = 2 * elapsed_ms;
  return f;
}

// The formulas with the decided rule on at half the playouts left.
TimeParams decided_params() {
  TimeParams p = formula_params();
  p.decided_share = 0.5;
  return p;
}

TEST(StopRules, ADecidedMoveStopsOnceNoRivalCanCatchUpInTheTimeLeft) {
  StopRules rules(decided_params(), 1);
  rules.begin(blitz(), kFirstMove, kStart);
  ASSERT_EQ(rules.budget().target_ms, 4700);
  // At 1000 ms, 3700 ms are left: 7400 playouts, half of them 3700.
  EXPECT_TRUE(rules.check(decided_tree(3701, 1000), at(1000)).stop);
  EXPECT_FALSE(rules.check(decided_tree(3700, 1000), at(1000)).stop);
  // Later less is left: at 4000 ms 700 ms make 1400 playouts, half of them 700.
  EXPECT_TRUE(rules.check(decided_tree(701, 4000), at(4000)).stop);
  // A choice that any playout can change (gap 0) runs to the target.
  EXPECT_FALSE(rules.check(decided_tree(0, 4699), at(4699)).stop);
  // No rival at all: decided as soon as the search has made a playout.
  EXPECT_TRUE(rules.check(decided_tree(kNoRival, 5), at(5)).stop);
  EXPECT_FALSE(rules.check(decided_tree(kNoRival, 0), at(0)).stop);
  // Nothing is decided before the tree has a best move.
  SearchFigures unknown = decided_tree(kNoRival, 1000);
  unknown.best_q.reset();
  EXPECT_FALSE(rules.check(unknown, at(1000)).stop);
  // It looks from the start, every 1/100 of the target, instead of sleeping to the easy limit.
  EXPECT_EQ(rules.next_check_ms(0), 47);
  EXPECT_EQ(rules.next_check_ms(1000), 1047);
}

TEST(StopRules, TheDecidedRuleCountsTheExtensionsAndTheHumanMinimum) {
  StopRules rules(decided_params(), 1);
  rules.end(0.5);
  rules.begin(blitz(), kFirstMove, kStart);
  // Critical: the search would run to 7050 ms, so at 1000 ms half of 12100 playouts are left.
  SearchFigures critical = decided_tree(4000, 1000);
  critical.best_q = 0.25;
  EXPECT_FALSE(rules.check(critical, at(1000)).stop);
  critical.visits_to_change = 6051;
  EXPECT_TRUE(rules.check(critical, at(1000)).stop);
  // Against a human nothing stops before the minimum think time.
  SearchLimits l = blitz();
  l.human_opponent = true;
  l.min_think_ms = 800;
  rules.begin(l, kFirstMove, kStart);
  EXPECT_FALSE(rules.check(decided_tree(kNoRival, 500), at(500)).stop);
  EXPECT_TRUE(rules.check(decided_tree(kNoRival, 800), at(800)).stop);
}

TEST(StopRules, TheDecidedRuleIsOffByDefault) {
  StopRules rules(formula_params(), 1);
  rules.begin(blitz(), kFirstMove, kStart);
  EXPECT_FALSE(rules.check(decided_tree(kNoRival, 4699), at(4699)).stop);
  EXPECT_EQ(rules.next_check_ms(0), 2350);
}

TEST(StopRules, TimeSavedByEarlyStopsIsHandedBackToTheNextBudgets) {
  TimeParams p = formula_params();
  p.reinvest_savings = 2.0;
  StopRules rules(p, 1);
  rules.begin(blitz(), kFirstMove, kStart);
  ASSERT_EQ(rules.budget().target_ms, 4700);
  // Stopped by the rules at half the target: the running use falls from 1 to 0.9.
  rules.end(0.1, at(2350));
  EXPECT_NEAR(rules.stretch(), 1 / 0.9, 1e-9);
  rules.begin(blitz(), kFirstMove, kStart);
  EXPECT_EQ(rules.budget().target_ms, 5255);  // 5000 / 0.9 - 300
  // Moves that end otherwise (a proof, stop()) leave it as it is; so do a fixed movetime and
  // analysis.
  rules.end(0.1);
  SearchLimits fixed;
  fixed.movetime = 1000;
  rules.begin(fixed, kFirstMove, kStart);
  rules.end(0.1, at(10));
  SearchLimits infinite;
  infinite.infinite = true;
  rules.begin(infinite, kFirstMove, kStart);
  rules.end(0.1, at(10));
  EXPECT_NEAR(rules.stretch(), 1 / 0.9, 1e-9);
  // Stops at once, move after move, reach the cap and no further.
  for (int i = 0; i < 30; ++i) {
    rules.begin(blitz(), kFirstMove, kStart);
    rules.end(0.1, at(0));
  }
  EXPECT_DOUBLE_EQ(rules.stretch(), 2.0);
  rules.begin(blitz(), kFirstMove, kStart);
  EXPECT_EQ(rules.budget().target_ms, 9700);
  // Moves that run to their target bring it back toward 1; a new game forgets it.
  for (int i = 0; i < 4; ++i) {
    rules.begin(blitz(), kFirstMove, kStart);
    rules.end(0.1, at(rules.budget().target_ms));
  }
  EXPECT_LT(rules.stretch(), 1.8);
  rules.new_game();
  EXPECT_DOUBLE_EQ(rules.stretch(), 1.0);
}

TEST(StopRules, NoTimeIsHandedBackByDefault) {
  StopRules rules(formula_params(), 1);
  rules.begin(blitz(), kFirstMove, kStart);
  rules.end(0.1, at(0));
  EXPECT_DOUBLE_EQ(rules.stretch(), 1.0);
  rules.begin(blitz(), kFirstMove, kStart);
  EXPECT_EQ(rules.budget().target_ms, 4700);
}

TEST(StopRules, TheTunablesArePlainParameters) {
  TimeParams p = formula_params();
  p.easy_prior = 0.5;
  p.easy_fraction = 0.25;
  p.critical_q_drop = 0.5;
  StopRules rules(p, 1);
  rules.begin(blitz(), kFirstMove, kStart);
  EXPECT_TRUE(rules.check(tree(0.6, true, 0.1), at(1175)).stop);  // 4700 / 4
  rules.end(0.3);
  rules.begin(blitz(), kFirstMove, kStart);
  EXPECT_FALSE(rules.is_critical(0.1));
  EXPECT_TRUE(rules.is_critical(-0.3));
  p.critical_q_drop = 0.1;
  rules.set_params(p);
  EXPECT_TRUE(rules.is_critical(0.1));
}

}  // namespace
}  // namespace zh
