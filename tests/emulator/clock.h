#pragma once
// A lichess real-time clock: remaining time per side with a Fischer increment. As on lichess
// it only starts running once both sides have made their first move (the first moves are
// timed by the game's "expiration" instead), and it freezes when the game ends.

#include <chrono>
#include <cstdint>

#include "engine/chess/types.h"

namespace zh::emulator {

using Millis = std::int64_t;
using SteadyClock = std::chrono::steady_clock;
using SteadyTime = SteadyClock::time_point;

inline Millis millis_between(SteadyTime from, SteadyTime to) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

class GameClock {
 public:
  GameClock(Millis initial, Millis increment);

  Millis initial() const { return initial_; }
  Millis increment() const { return increment_; }
  bool running() const { return running_; }
  // Time left for `c` at `now`; negative once that side has overstepped.
  Millis remaining(Color c, SteadyTime now) const;

  // `mover` finished a move at `now`; `plies_after` counts the plies played including it.
  void on_move(Color mover, int plies_after, SteadyTime now);
  // Hands the clock to `next` without an increment (after a takeback).
  void set_turn(Color next, SteadyTime now);
  // Freezes both sides (game over).
  void stop(SteadyTime now);
  // Restores a saved state (used when games are reloaded after a server restart).
  void restore(Millis white, Millis black, bool running, Color turn, SteadyTime now);

 private:
  Millis initial_;
  Millis increment_;
  Millis remaining_[2];
  bool running_ = false;
  Color turn_ = kWhite;
  SteadyTime since_{};
};

}  // namespace zh::emulator
