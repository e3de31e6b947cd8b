#pragma once
// Exponential backoff with jitter for reconnects and retries. Jitter spreads reconnects of
// many clients after a server restart; the cap keeps a long outage from parking us for hours.

#include "bot/lichess/random_source.h"
#include "engine/util/clock.h"

namespace zh::bot {

struct BackoffParams {
  Millis initial{1000};
  Millis max{60000};
  double factor = 2.0;
  double jitter = 0.25;  // the delay is scaled by a random factor in [1 - jitter, 1 + jitter]
};

class Backoff {
 public:
  Backoff(BackoffParams params, RandomSource random);

  // The delay before the next attempt; grows with every call until reset(). Always within
  // [params.initial, params.max].
  Millis next();
  void reset() { attempt_ = 0; }
  int attempts() const { return attempt_; }

 private:
  BackoffParams params_;
  RandomSource random_;
  int attempt_ = 0;
};

}  // namespace zh::bot
