#include "bot/lichess/backoff.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace zh::bot {

Backoff::Backoff(BackoffParams params, RandomSource random)
    : params_(params), random_(std::move(random)) {}

Millis Backoff::next() {
  const double initial = double(params_.initial.count());
  const double cap = double(params_.max.count());
  // Stop growing the exponent once the cap is reached so it cannot overflow.
  const double base = std::min(cap, initial * std::pow(params_.factor, std::min(attempt_, 62)));
  ++attempt_;
  const double scale = 1.0 + params_.jitter * (2.0 * random_() - 1.0);
  const double delay = std::clamp(base * scale, initial, cap);
  return Millis(std::llround(delay));
}

}  // namespace zh::bot
