#include "engine/time/time_manager.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace zh {
namespace {

// White to move with this clock, after `move` of our moves, with 30 legal moves.
struct Case {
  SearchLimits limits;
  MoveContext move{kWhite, 0, 30};
};

Case clock_of(std::int64_t remaining, std::int64_t inc, int move) {
  Case c;
  c.limits.wtime = remaining;
  c.limits.btime = 60000;  // the opponent's clock does not matter
  c.limits.winc = inc;
  c.move.move_number = move;
  return c;
}

TimeBudget plan(TimeManager& tm, const Case& c) { return tm.plan(c.limits, c.move); }

// The budgets below are worked out by hand with a 50-move game and 70% of the increment, so
// they check the formulas whatever the shipped defaults are (those have a test of their own).
TimeParams formula_params() {
  TimeParams p = TimeParams::defaults();
  p.expected_game_length = 50;
  p.increment_factor = 0.7;
  return p;
}

TEST(TimeManager, Bullet1Plus0) {
  TimeManager tm(formula_params(), 1);
  // 60000 / 50 = 1200, minus 300 ms overhead.
  const TimeBudget b = plan(tm, clock_of(60000, 0, 0));
  EXPECT_TRUE(b.timed);
  EXPECT_EQ(b.target_ms, 900);
  EXPECT_EQ(b.max_ms, 1350);  // critical positions may extend by half
  EXPECT_EQ(b.min_ms, 0);
  // Move 20 with 30 s left: 30000 / 30 - 300 = 700.
  EXPECT_EQ(plan(tm, clock_of(30000, 0, 20)).target_ms, 700);
}

TEST(TimeManager, Blitz3Plus2) {
  TimeManager tm(formula_params(), 1);
  // 180000 / 50 + 0.7 * 2000 - 300 = 3600 + 1400 - 300.
  EXPECT_EQ(plan(tm, clock_of(180000, 2000, 0)).target_ms, 4700);
  // From move 40 on: 5% of the clock: 0.05 * 60000 + 1400 - 300.
  EXPECT_EQ(plan(tm, clock_of(60000, 2000, 40)).target_ms, 4100);
  // Before move 40 the game length rule holds: 60000 / (50 - 39) + 1400 - 300 = 6554.
  EXPECT_EQ(plan(tm, clock_of(60000, 2000, 39)).target_ms, 6554);
}

TEST(TimeManager, AStretchScalesTheMiddlegameBudgetOnly) {
  TimeManager tm(formula_params(), 1);
  const Case c = clock_of(180000, 2000, 0);
  // (3600 + 1400) x 1.5 - 300; below 1 it is no stretch.
  EXPECT_EQ(tm.plan(c.limits, c.move, 1.5).target_ms, 7200);
  EXPECT_EQ(tm.plan(c.limits, c.move, 0.5).target_ms, 4700);
  // The hard cap keeps the safety floor: 3 s left at move 39, stretched 4x.
  const Case low = clock_of(3000, 2000, 39);
  EXPECT_EQ(tm.plan(low.limits, low.move, 4.0).target_ms, 3000 - 300 - 1000);
  // The late game keeps its share of what is left: 0.05 * 60000 + 1400 - 300.
  const Case late = clock_of(60000, 2000, 40);
  EXPECT_EQ(tm.plan(late.limits, late.move, 2.0).target_ms, 4100);
  // A fixed time a move, or moves to go, is what it is.
  Case fixed = c;
  fixed.limits.movetime = 1000;
  EXPECT_EQ(tm.plan(fixed.limits, fixed.move, 2.0).target_ms, 700);
  Case control = c;
  control.limits.movestogo = 20;
  EXPECT_EQ(tm.plan(control.limits, control.move, 2.0).target_ms, 180000 / 20 + 1400 - 300);
}

TEST(TimeManager, AShortExpectedGameNeverPlansTheWholeClock) {
  // expected_game_length 30 with the late game from move 40: at move 29 the plan used to be
  // 60000 / 1, the whole clock less the floor. It keeps ten moves to go.
  TimeParams p = formula_params();
  p.expected_game_length = 30;
  TimeManager tm(p, 1);
  EXPECT_EQ(plan(tm, clock_of(60000, 2000, 29)).target_ms, 60000 / 10 + 1400 - 300);
  EXPECT_EQ(plan(tm, clock_of(60000, 2000, 35)).target_ms, 60000 / 10 + 1400 - 300);
  // Earlier on the expected length still rules: 60000 / (30 - 10) + 1400 - 300.
  EXPECT_EQ(plan(tm, clock_of(60000, 2000, 10)).target_ms, 4100);
}

TEST(TimeManager, TheFloorOfMovesToGoIsAnOption) {
  TimeParams p = formula_params();
  p.expected_game_length = 30;
  p.min_moves_to_go = 6;
  TimeManager tm(p, 1);
  // 30 - 26 = 4 moves to go would be planned; the floor keeps 6: 60000 / 6 + 1400 - 300.
  EXPECT_EQ(plan(tm, clock_of(60000, 2000, 26)).target_ms, 60000 / 6 + 1400 - 300);
  // Above the floor the expected length rules: 60000 / (30 - 20) + 1400 - 300.
  EXPECT_EQ(plan(tm, clock_of(60000, 2000, 20)).target_ms, 60000 / 10 + 1400 - 300);
}

// Plays a sudden-death game without increment in which every move takes its whole budget (plus
// the overhead, charged as lag), and returns the clock before each of our moves.
std::vector<std::int64_t> clock_through_game(const TimeParams& p, std::int64_t base, int moves) {
  TimeManager tm(p, 1);
  std::vector<std::int64_t> clock{base};
  for (int m = 0; m < moves; ++m) {
    const TimeBudget b = plan(tm, clock_of(clock.back(), 0, m));
    clock.push_back(clock.back() - b.target_ms - p.move_overhead_ms);
  }
  return clock;
}

TEST(TimeManager, TheMiddlegameBoostMovesTimeFromTheOpeningToThePeak) {
  TimeParams flat = TimeParams::defaults();
  TimeParams boosted = flat;
  boosted.middlegame_boost = 1.0;
  boosted.middlegame_peak = 20;
  boosted.middlegame_width = 9;
  EXPECT_DOUBLE_EQ(middlegame_weight(boosted, 20), 2.0);
  EXPECT_DOUBLE_EQ(middlegame_weight(boosted, 11), middlegame_weight(boosted, 29));
  EXPECT_DOUBLE_EQ(clock_share(flat, 5, 30), 1.0 / 30);  // no boost: the flat plan

  const auto f = clock_through_game(flat, 180000, 45);
  const auto g = clock_through_game(boosted, 180000, 45);
  auto spent = [](const std::vector<std::int64_t>& c, int move) { return c[move] - c[move + 1]; };
  // The first moves get less than the flat plan, the peak's more (1+0 ... 3+0 alike).
  EXPECT_LT(spent(g, 0), spent(f, 0) * 0.8);
  EXPECT_GT(spent(g, 20), spent(f, 20) * 1.2);
  // What the late game inherits stays close to the flat plan's: the boost redistributes, it
  // does not spend the reserve of a game without increment.
  EXPECT_GT(g[40], f[40] * 0.75);
  // The increment is added whole, never weighted by the move.
  TimeManager tm(boosted, 1);
  const std::int64_t without = plan(tm, clock_of(60000, 0, 20)).target_ms;
  EXPECT_EQ(plan(tm, clock_of(60000, 2000, 20)).target_ms, without + 2000);
}

TEST(TimeManager, Rapid15Plus10) {
  TimeManager tm(formula_params(), 1);
  // 900000 / 50 + 7000 - 300.
  const TimeBudget b = plan(tm, clock_of(900000, 10000, 0));
  EXPECT_EQ(b.target_ms, 24700);
  EXPECT_EQ(b.max_ms, 37050);
}

TEST(TimeManager, MovesToGo) {
  TimeManager tm(formula_params(), 1);
  Case c = clock_of(120000, 0, 0);
  c.limits.movestogo = 20;
  EXPECT_EQ(plan(tm, c).target_ms, 120000 / 20 - 300);
}

TEST(TimeManager, LowClockKeepsTheSafetyFloor) {
  TimeManager tm(formula_params(), 1);
  for (std::int64_t remaining : {5000, 2000, 1500, 1000, 500, 100, 0}) {
    for (int move : {0, 30, 60}) {
      for (std::int64_t inc : {0, 1000, 2000}) {
        const TimeBudget b = plan(tm, clock_of(remaining, inc, move));
        // Never plan past the clock less the overhead and the floor (or the minimum search).
        EXPECT_LE(b.max_ms, std::max<std::int64_t>(20, remaining - 300 - 1000))
            << remaining << " " << move << " " << inc;
        EXPECT_GE(b.target_ms, 20);
        EXPECT_LE(b.target_ms, b.max_ms);
      }
    }
  }
  // 1.5 s left at move 45: 75 ms of plan - 300 ms overhead -> the 20 ms minimum.
  EXPECT_EQ(plan(tm, clock_of(1500, 0, 45)).target_ms, 20);
}

TEST(TimeManager, SingleLegalMoveIsAnsweredAtOnce) {
  TimeManager tm(formula_params(), 1);
  Case c = clock_of(180000, 2000, 10);
  c.move.legal_moves = 1;
  EXPECT_EQ(plan(tm, c).target_ms, 0);
  // ...but a human opponent still gets the minimum think time.
  c.limits.human_opponent = true;
  c.limits.min_think_ms = 800;
  const TimeBudget b = plan(tm, c);
  EXPECT_EQ(b.target_ms, 800);
  EXPECT_EQ(b.min_ms, 800);
}

TEST(TimeManager, JitterOnlyAgainstHumansSeededAndBounded) {
  TimeManager a(formula_params(), 7), b(formula_params(), 7);
  Case c = clock_of(180000, 2000, 0);  // base 5000 ms before the overhead
  for (int i = 0; i < 5; ++i) EXPECT_EQ(plan(a, c).target_ms, 4700);  // bots: no jitter
  c.limits.human_opponent = true;
  std::int64_t lo = 1 << 30, hi = 0;
  for (int i = 0; i < 300; ++i) {
    const std::int64_t t = plan(a, c).target_ms;
    EXPECT_EQ(t, plan(b, c).target_ms);  // same seed, same sequence
    lo = std::min(lo, t);
    hi = std::max(hi, t);
  }
  // t = 5000 * (1 + f) - 300, f in [-0.1, 0.1] -> [4200, 5200], and it really varies.
  EXPECT_GE(lo, 4200);
  EXPECT_LE(hi, 5200);
  EXPECT_LT(lo, 4400);
  EXPECT_GT(hi, 5000);
}

TEST(TimeManager, MovetimeAndUntimed) {
  TimeManager tm(formula_params(), 1);
  Case c;
  c.limits.movetime = 1000;
  TimeBudget b = plan(tm, c);
  EXPECT_EQ(b.target_ms, 700);
  EXPECT_EQ(b.max_ms, 700);
  c.limits.movetime = 100;
  EXPECT_EQ(plan(tm, c).target_ms, 20);
  b = plan(tm, Case{});
  EXPECT_FALSE(b.timed);
}

TEST(TimeManager, TheDefaultsAtLichess1Plus1) {
  // Chosen by a 1+1 match (README "Strength"): 60000 / 35 + 1000 - 300 on the first move, where
  // 50 moves and 70% of the increment planned 60000 / 50 + 700 - 300 = 1600.
  TimeManager tm(TimeParams::defaults(), 1);
  EXPECT_EQ(plan(tm, clock_of(60000, 1000, 0)).target_ms, 2414);
  // Move 30 with 20 s left: ten moves to go at least, 20000 / 10 + 1000 - 300.
  EXPECT_EQ(plan(tm, clock_of(20000, 1000, 30)).target_ms, 2700);
}

TEST(TimeManager, OptionsAreDeclaredOnce) {
  Options o;
  TimeParams::declare(o);
  o.set("move_overhead_ms", "50");
  const TimeParams p = TimeParams::from(o);
  EXPECT_EQ(p.move_overhead_ms, 50);
  EXPECT_EQ(p.expected_game_length, 35);
  EXPECT_EQ(p.min_moves_to_go, 10);
  EXPECT_DOUBLE_EQ(p.increment_factor, 1.0);
  EXPECT_DOUBLE_EQ(p.jitter, 0.1);
  EXPECT_EQ(o.at("move_overhead_ms").uci_name, "Move_Overhead");
}

}  // namespace
}  // namespace zh
