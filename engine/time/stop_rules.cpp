#include "engine/time/stop_rules.h"

#include <algorithm>

namespace zh {

namespace {
// The weight of the last move in the running mean of used / target: about the last five moves.
constexpr double kUsageWeight = 0.2;
}  // namespace

StopRules::StopRules(const TimeParams& params, std::uint64_t seed) : planner_(params, seed) {}

void StopRules::begin(const SearchLimits& limits, const MoveContext& move, TimePoint now) {
  limits_ = limits;
  budget_ = planner_.plan(limits, move, stretch());
  clock_start_ = now;
  pondering_ = limits.ponder;
}

void StopRules::ponderhit(TimePoint now) {
  if (!pondering_) return;
  // The clock started when the opponent moved, which is now.
  pondering_ = false;
  clock_start_ = now;
}

StopVerdict StopRules::check(const SearchFigures& f, TimePoint now) const {
  // UCI: in infinite and ponder mode the bestmove waits for stop (or ponderhit).
  if (limits_.infinite || pondering_) return {};
  if (f.finished) {
    // A search that ended early still keeps the minimum think time asked for against a human.
    if (!budget_.timed) return {true, {}};
    const TimePoint min_end = clock_start_ + Millis(budget_.min_ms);
    if (now >= min_end) return {true, {}};
    return {false, min_end};
  }
  if (!budget_.timed) return {};  // only the workers' limits or stop() end it
  const std::int64_t elapsed = ms_between(clock_start_, now);
  const bool easy = f.best_q && is_easy(f.top_prior, f.top_prior_is_best);
  const bool critical = f.best_q && is_critical(*f.best_q);
  const bool contested = f.best_q && is_contested(f.challenger_share);
  if (time_is_up(elapsed, easy, critical, contested)) return {true, {}};
  if (f.best_q &&
      is_decided(f.visits_to_change, f.playouts, elapsed, stop_limit_ms(easy, critical, contested)))
    return {true, {}};
  return {false, clock_start_ + Millis(next_check_ms(elapsed))};
}

void StopRules::end(std::optional<double> chosen_q, std::optional<TimePoint> rules_stop) {
  // The critical rule compares our moves' values. An infinite search is analysis or the bot's
  // pondering on the opponent's move, whose Q is from the other side: not ours.
  if (chosen_q && !limits_.infinite) previous_best_q_ = chosen_q;
  // Only clock budgets are stretched, so only they count (not a fixed movetime).
  if (rules_stop && budget_.timed && !pondering_ && !limits_.infinite && limits_.movetime <= 0 &&
      budget_.target_ms > 0) {
    const double used = double(ms_between(clock_start_, *rules_stop)) / double(budget_.target_ms);
    usage_ += kUsageWeight * (used - usage_);
  }
}

double StopRules::stretch() const {
  const double most = params().reinvest_savings;
  if (most <= 1) return 1.0;
  if (usage_ <= 0) return most;  // the game's rule-ended moves all stopped at once
  return std::clamp(1.0 / usage_, 1.0, most);
}

bool StopRules::is_easy(double top_prior, bool top_prior_is_best) const {
  return top_prior > params().easy_prior && top_prior_is_best;
}

bool StopRules::is_critical(double best_q) const {
  return previous_best_q_ && *previous_best_q_ - best_q >= params().critical_q_drop;
}

bool StopRules::is_contested(double challenger_share) const {
  return params().contested_extension > 0 && challenger_share >= params().contested_share;
}

bool StopRules::is_decided(std::uint32_t visits_to_change, std::int64_t playouts,
                           std::int64_t elapsed_ms, std::int64_t limit_ms) const {
  const double share = params().decided_share;
  if (share <= 0 || elapsed_ms <= 0 || playouts <= 0 || elapsed_ms < budget_.min_ms) return false;
  if (visits_to_change == 0) return false;
  // The speed so far; after a ponderhit it counts the pondered playouts too, which only
  // overstates what is left to come and so stops later, never sooner.
  const double left = double(playouts) * double(std::max<std::int64_t>(0, limit_ms - elapsed_ms)) /
                      double(elapsed_ms);
  return double(visits_to_change) > share * left;
}

std::int64_t StopRules::extended_limit_ms(double extension) const {
  return std::min(budget_.max_ms, std::int64_t(double(budget_.target_ms) * (1.0 + extension)));
}

std::int64_t StopRules::easy_limit_ms() const {
  return std::max(budget_.min_ms, std::int64_t(budget_.target_ms * params().easy_fraction));
}

bool StopRules::time_is_up(std::int64_t elapsed_ms, bool easy, bool critical,
                           bool contested) const {
  const TimeBudget& b = budget_;
  if (!b.timed) return false;
  if (elapsed_ms >= b.max_ms) return true;
  if (elapsed_ms < b.min_ms) return false;
  return elapsed_ms >= stop_limit_ms(easy, critical, contested);
}

std::int64_t StopRules::stop_limit_ms(bool easy, bool critical, bool contested) const {
  // An extension wins over the easy rule: a move that is easy by its prior but critical or
  // contested by the search is not easy.
  std::int64_t limit = easy && !critical && !contested ? easy_limit_ms() : budget_.target_ms;
  if (critical) limit = std::max(limit, extended_limit_ms(params().critical_extension));
  if (contested) limit = std::max(limit, extended_limit_ms(params().contested_extension));
  return std::min(limit, budget_.max_ms);
}

std::int64_t StopRules::next_check_ms(std::int64_t elapsed_ms) const {
  const TimeBudget& b = budget_;
  if (elapsed_ms < b.min_ms) return b.min_ms;
  // Before the easy-move limit only the decided rule can end a search early.
  const std::int64_t easy_limit = easy_limit_ms();
  if (params().decided_share <= 0 && elapsed_ms < easy_limit) return easy_limit;
  const std::int64_t step = std::clamp<std::int64_t>(b.target_ms / 100, 5, 50);
  return std::min(b.max_ms, elapsed_ms + step);
}

}  // namespace zh
