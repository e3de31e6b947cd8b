#include "engine/time/time_manager.h"

#include <algorithm>
#include <cmath>

#include "engine/option_table.h"

namespace zh {

namespace {

const OptionTable<TimeParams> kOptions{
    "time",
    {
        {"move_overhead_ms", &TimeParams::move_overhead_ms, Int{300, 0, 60000},
         "time lost per move to network and server lag; subtracted from every budget",
         "Move_Overhead"},
        {"expected_game_length", &TimeParams::expected_game_length, Int{35, 2, 500},
         "sudden death: the game is planned to last this many of our moves"},
        {"min_moves_to_go", &TimeParams::min_moves_to_go, Int{10, 1, 500},
         "sudden death: never plan for fewer moves to go than this before late_game_move "
         "(without it, a game longer than expected_game_length would spend the whole clock on "
         "one move)"},
        {"increment_factor", &TimeParams::increment_factor, Float{1.0, 0, 1},
         "share of the increment spent on each move"},
        {"middlegame_boost", &TimeParams::middlegame_boost, Float{0, 0, 4},
         "sudden death, before late_game_move: each move weighs 1 + boost * exp(-((move - "
         "middlegame_peak) / middlegame_width)^2) and gets its weight's share of the moves to go, "
         "so the clock moves from the opening to the middlegame, where games are decided, "
         "while the moves after the peak keep what the flat plan gives them (0: a flat plan)"},
        {"middlegame_peak", &TimeParams::middlegame_peak, Int{20, 0, 499},
         "the move (of ours) that weighs most in the middlegame plan"},
        {"middlegame_width", &TimeParams::middlegame_width, Int{9, 1, 500},
         "how many moves either side of the peak its weight reaches (its e-folding width)"},
        {"late_game_move", &TimeParams::late_game_move, Int{40, 1, 499},
         "from this move on, spend late_game_fraction of the remaining time per move"},
        {"late_game_fraction", &TimeParams::late_game_fraction, Float{0.05, 0.001, 1},
         "share of the clock per move late on"},
        {"safety_floor_ms", &TimeParams::safety_floor_ms, Int{1000, 0, 600000},
         "never plan to let the clock fall under this (hard cap per move)"},
        {"min_move_ms", &TimeParams::min_move_ms, Int{20, 1, 60000},
         "the shortest search when time is short"},
        {"time_jitter", &TimeParams::jitter, Float{0.1, 0, 0.5},
         "eq. (9): vary each budget by a random share in [-x, +x] (human opponents only)"},
        {"easy_move_prior", &TimeParams::easy_prior, Float{0.9, 0, 1},
         "a top prior above this that stays best by Q stops the search early"},
        {"easy_move_fraction", &TimeParams::easy_fraction, Float{0.5, 0.05, 1},
         "share of the budget spent on easy moves"},
        {"critical_q_drop", &TimeParams::critical_q_drop, Float{0.1, 0, 2},
         "a best Q this far under the previous move's extends the search"},
        {"critical_extension", &TimeParams::critical_extension, Float{0.5, 0, 4},
         "extension share for critical positions"},
        {"contested_share", &TimeParams::contested_share, Float{0.3, 0.01, 1},
         "the move to play is contested when another with at least this share of its visits "
         "has a better Q"},
        {"contested_extension", &TimeParams::contested_extension, Float{0, 0, 4},
         "extension share while the move to play is contested (0: off)"},
        {"decided_share", &TimeParams::decided_share, Float{0, 0, 1},
         "stop before the time is up once the move to play is decided: no other move could "
         "reach the visits that would change the choice even if it got this share of the "
         "playouts the time left would make at the search's speed (0: off; 1: all of them)"},
        {"reinvest_savings", &TimeParams::reinvest_savings, Float{1, 1, 4},
         "hand back the time that early stops (easy, decided) save: each sudden-death budget "
         "before late_game_move is stretched by the game's running ratio of planned to used "
         "time, up to this factor, so the middlegame spends it instead of the reserve growing "
         "(1: off)"},
    }};

}  // namespace

double middlegame_weight(const TimeParams& p, int move_number) {
  const double z = double(move_number - p.middlegame_peak) / double(p.middlegame_width);
  return 1.0 + p.middlegame_boost * std::exp(-z * z);
}

double clock_share(const TimeParams& p, int move_number, int moves_to_go) {
  // Without a boost every weight is 1 and the share exactly 1 / moves_to_go: the flat plan.
  double planned = 0;  // the weights of this move and the others still to go
  for (int k = move_number; k < move_number + moves_to_go; ++k) planned += middlegame_weight(p, k);
  return middlegame_weight(p, move_number) / planned;
}

void TimeParams::declare(Options& options) { kOptions.declare(options); }

TimeParams TimeParams::from(const Options& options) { return kOptions.read(options); }

TimeParams TimeParams::defaults() { return kOptions.defaults(); }

TimeManager::TimeManager(const TimeParams& params, std::uint64_t seed) : params_(params) {
  this->seed(seed);
}

void TimeManager::seed(std::uint64_t seed) {
  if (seed == 0) seed = (std::uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  rng_.seed(seed);
}

TimeBudget TimeManager::plan(const SearchLimits& limits, const MoveContext& move, double stretch) {
  TimeBudget b;
  const TimeParams& p = params_;
  const std::optional<std::int64_t>& clock = move.us == kWhite ? limits.wtime : limits.btime;
  const std::int64_t increment_ms = move.us == kWhite ? limits.winc : limits.binc;
  if (limits.movetime > 0) {
    // A fixed time per move: spend it, less the overhead; no jitter, no extension.
    b.timed = true;
    b.target_ms = std::max(p.min_move_ms, limits.movetime - p.move_overhead_ms);
    b.max_ms = b.target_ms;
    b.min_ms = std::min(limits.min_think_ms, b.max_ms);
    if (move.legal_moves <= 1) b.target_ms = b.min_ms;
    return b;
  }
  if (!clock) return b;  // untimed: only stop or limits end it
  b.timed = true;
  const std::int64_t remaining_ms = std::max<std::int64_t>(0, *clock);
  const double remaining = double(remaining_ms);
  const double inc = p.increment_factor * double(increment_ms);
  double t;
  if (limits.movestogo > 0) {
    t = remaining / limits.movestogo + inc;
  } else if (move.move_number < p.late_game_move) {
    const int moves_to_go = std::max(p.min_moves_to_go, p.expected_game_length - move.move_number);
    // Only here: the late game's share of what is left already spends the time saved, and
    // stretching it too ate the reserve (1+1: a median low point of 1.6 s at stretch 4).
    t = (remaining * clock_share(p, move.move_number, moves_to_go) + inc) * std::max(1.0, stretch);
  } else {
    t = remaining * p.late_game_fraction + inc;
  }
  if (limits.human_opponent && p.jitter > 0) {
    std::uniform_real_distribution<double> f(-p.jitter, p.jitter);
    t += f(rng_) * t;
  }
  const std::int64_t cap =
      std::max(p.min_move_ms, remaining_ms - p.move_overhead_ms - p.safety_floor_ms);
  std::int64_t target = std::int64_t(t) - p.move_overhead_ms;
  target = std::clamp(target, p.min_move_ms, cap);
  const double extension = std::max(p.critical_extension, p.contested_extension);
  b.max_ms = std::min<std::int64_t>(cap, std::int64_t(target * (1.0 + extension)));
  b.max_ms = std::max(b.max_ms, target);
  b.min_ms = limits.human_opponent ? std::min(limits.min_think_ms, cap) : 0;
  b.target_ms = move.legal_moves <= 1 ? b.min_ms : std::max(target, b.min_ms);
  b.max_ms = std::max(b.max_ms, b.target_ms);
  return b;
}

}  // namespace zh
