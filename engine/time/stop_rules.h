#pragma once
// When a search ends: the one component that decides it, apart from an explicit stop() (the
// engine's) and the playout limit (the workers enforce it, so a node count is exact).
//
// The engine calls begin() when a search starts, then check() each time it wakes with what the
// search looks like now, and sleeps until the time check() names or an event (stop, ponderhit,
// the workers finishing). end() records the value of the move played, for the critical rule of
// the next move. Every decision is a pure function of the figures and the times passed in, so
// each rule is unit-tested without a search or a real clock (tests/engine/time).
//
// The rules, in order:
//  - infinite: only stop() ends the search; ponder: only stop(), or ponderhit() and then the
//    clock rules below, counted from the ponderhit (the opponent's move);
//  - the workers finished on their own (playout or tree cap, a proven result, one legal move):
//    stop, but against a human not before the minimum think time;
//  - timed: the budget of the TimeManager (target, max, min): stop at the target; an easy move
//    (the network's favourite by far, still best by Q) stops at easy_fraction of it; a critical
//    one (our best Q fell by critical_q_drop since our previous move) runs on to
//    (1 + critical_extension) x the target, a contested one (another move with contested_share
//    of the chosen move's visits has a better Q: more search may change the move) to
//    (1 + contested_extension) x the target; never past the maximum;
//  - decided (decided_share > 0): before any of those limits, stop once no other move can
//    change the choice in the time left: the closest rival needs more visits
//    (move_choice.h, visits_to_change) than decided_share of the playouts that time would
//    make at the search's speed so far;
//  - reinvest_savings > 1: the early stops (easy, decided) leave time on the clock that the
//    plan would only spend late, as a reserve. end() keeps a running mean of used / target
//    over the game's moves that these rules ended, and begin() stretches the next budget by
//    its inverse (at most reinvest_savings), so the moves that run to their limit get it.
//
// The tunables are the plain fields of TimeParams (expected_game_length: the middlegame share
// 1 / length of the clock; increment_factor; easy_prior, easy_fraction; critical_q_drop,
// critical_extension; ...), declared once as options in time_manager.cpp.

#include <cstdint>
#include <optional>

#include "engine/time/search_limits.h"
#include "engine/time/time_manager.h"
#include "engine/util/clock.h"

namespace zh {

// What the engine reads from the search each time it asks.
struct SearchFigures {
  bool finished = false;           // the workers stopped on their own
  double top_prior = 0;            // the highest prior among the root moves
  bool top_prior_is_best = false;  // ...and that move is the current best
  std::optional<double> best_q;    // the current best move's Q; absent before it has one
  // The largest share of the best move's visits that a move with a better Q has (0: none).
  double challenger_share = 0;
  // The visits the closest rival needs before the choice could change (0: any playout can).
  std::uint32_t visits_to_change = 0;
  std::int64_t playouts = 0;  // made by this search so far (its speed, with the elapsed time)
};

struct StopVerdict {
  bool stop = false;
  // When to ask again if no event comes first; absent: only an event can change the answer.
  std::optional<TimePoint> recheck_at;
};

class StopRules {
 public:
  explicit StopRules(const TimeParams& params, std::uint64_t seed = 0);
  void set_params(const TimeParams& params) { planner_.set_params(params); }
  const TimeParams& params() const { return planner_.params(); }
  void seed(std::uint64_t seed) { planner_.seed(seed); }

  // A new game: forgets the previous move's value and the time the stops saved.
  void new_game() {
    previous_best_q_.reset();
    usage_ = 1.0;
  }

  // A search starts at `now` for `move` under `limits` (plans the time budget).
  void begin(const SearchLimits& limits, const MoveContext& move, TimePoint now);
  // The opponent played the move we pondered on: the clock rules apply from `now`.
  void ponderhit(TimePoint now);
  StopVerdict check(const SearchFigures& figures, TimePoint now) const;
  // The search ended and we play a move worth `chosen_q` to us (absent: no move); `rules_stop`
  // is when these rules stopped it (absent: it ended otherwise: stop(), a proof, a limit).
  void end(std::optional<double> chosen_q, std::optional<TimePoint> rules_stop = std::nullopt);
  // The factor begin() stretches the next clock budget by (reinvest_savings).
  double stretch() const;

  // Whether check() looks at the tree figures (their snapshot costs a copy of the root).
  bool watches_tree() const { return budget_.timed && !pondering_ && !limits_.infinite; }
  bool pondering() const { return pondering_; }
  const TimeBudget& budget() const { return budget_; }

  // The single rules, for tests and for the notes of a search.
  bool is_easy(double top_prior, bool top_prior_is_best) const;
  bool is_critical(double best_q) const;
  bool is_contested(double challenger_share) const;
  // Whether the move is decided at `elapsed_ms` when the search would otherwise stop at
  // `limit_ms` (see the rules above).
  bool is_decided(std::uint32_t visits_to_change, std::int64_t playouts, std::int64_t elapsed_ms,
                  std::int64_t limit_ms) const;
  // Whether a timed search at `elapsed_ms` of its budget stops, and when (elapsed ms) to ask
  // again: the thresholds themselves, and between the easy-move limit and the maximum (where
  // the easy, critical and contested rules depend on the tree) every 1/100 of the target, 5 to
  // 50 ms; with the decided rule on, that often from the human minimum on.
  bool time_is_up(std::int64_t elapsed_ms, bool easy, bool critical, bool contested = false) const;
  std::int64_t next_check_ms(std::int64_t elapsed_ms) const;

 private:
  std::int64_t easy_limit_ms() const;
  // When a timed search stops, given the rules that hold (never past the maximum).
  std::int64_t stop_limit_ms(bool easy, bool critical, bool contested) const;
  std::int64_t extended_limit_ms(double extension) const;

  TimeManager planner_;
  SearchLimits limits_;
  TimeBudget budget_;
  TimePoint clock_start_{};
  bool pondering_ = false;
  std::optional<double> previous_best_q_;  // the value of our previous move, to us
  double usage_ = 1.0;  // running mean of used / target time over the game's rule-ended moves
};

}  // namespace zh
