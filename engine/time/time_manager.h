#pragma once
// Time management (paper 9.2.4): the search limits in, a time budget out; StopRules
// (stop_rules.h) applies the budget while the search runs. Pure apart from the seeded jitter
// generator, so every case is unit-tested with synthetic clocks.
//
//  - sudden death: remaining x clock_share(move, n) + increment_factor * increment, where
//    n = max(min_moves_to_go, expected_game_length - move) moves are to go and the share is
//    1 / n, or with a middlegame boost the move's weight over the weights of the n moves (a
//    bell around middlegame_peak): the opening gives time to the middlegame;
//    from late_game_move on, late_game_fraction * remaining (+ the same increment share);
//  - moves to go: remaining / moves_to_go + increment_factor * increment;
//  - the move overhead is subtracted; a hard cap keeps safety_floor_ms on the clock;
//  - sudden death before late_game_move: x stretch, the stop rules' hand-back of the time
//    their early stops saved (1: none);
//  - against humans only: t += f * t, f ~ U[-jitter, +jitter] (eq. 9), and a minimum think;
//  - one legal move: answer at once (target = the minimum); the maximum leaves room for the
//    larger of the critical-position and contested-move extensions (x the target).

#include <cstdint>
#include <random>

#include "engine/chess/types.h"
#include "engine/options.h"
#include "engine/time/search_limits.h"

namespace zh {

struct TimeParams {
  std::int64_t move_overhead_ms;
  int expected_game_length;
  int min_moves_to_go;
  double increment_factor;
  double middlegame_boost;
  int middlegame_peak;
  int middlegame_width;
  int late_game_move;
  double late_game_fraction;
  std::int64_t safety_floor_ms;
  std::int64_t min_move_ms;
  double jitter;
  double easy_prior;
  double easy_fraction;
  double critical_q_drop;
  double critical_extension;
  double contested_share;
  double contested_extension;
  double decided_share;
  double reinvest_savings;

  static void declare(Options& options);
  static TimeParams from(const Options& options);
  static TimeParams defaults();
};

// How much our move `move_number` (0-based) weighs in the sudden-death plan (1: no boost).
double middlegame_weight(const TimeParams& p, int move_number);
// The share of the remaining clock that move gets with `moves_to_go` moves planned.
double clock_share(const TimeParams& p, int move_number, int moves_to_go);

// The position the budget is for, next to the limits.
struct MoveContext {
  Color us = kWhite;
  int move_number = 0;  // our moves already played in this game (0 on our first move)
  int legal_moves = 2;
};

struct TimeBudget {
  bool timed = false;          // false: only stop/limits end the search
  std::int64_t target_ms = 0;  // stop here normally
  std::int64_t max_ms = 0;     // never past here (the extensions, hard cap)
  std::int64_t min_ms = 0;     // never answer before this (human-facing minimum)
};

class TimeManager {
 public:
  explicit TimeManager(const TimeParams& params, std::uint64_t seed = 0);
  void seed(std::uint64_t seed);

  // `stretch` (>= 1) scales a sudden-death budget before late_game_move (before the overhead
  // and the caps): how the stop rules hand back the time their early stops saved
  // (stop_rules.h, reinvest_savings).
  TimeBudget plan(const SearchLimits& limits, const MoveContext& move, double stretch = 1.0);
  const TimeParams& params() const { return params_; }
  void set_params(const TimeParams& params) { params_ = params; }

 private:
  TimeParams params_;
  std::mt19937_64 rng_;
};

}  // namespace zh
