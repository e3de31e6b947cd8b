#include "tests/emulator/clock.h"

namespace zh::emulator {

GameClock::GameClock(Millis initial, Millis increment)
    : initial_(initial), increment_(increment), remaining_{initial, initial} {}

Millis GameClock::remaining(Color c, SteadyTime now) const {
  if (running_ && c == turn_) return remaining_[c] - millis_between(since_, now);
  return remaining_[c];
}

void GameClock::on_move(Color mover, int plies_after, SteadyTime now) {
  if (running_) {
    remaining_[turn_] -= millis_between(since_, now);
    // Increment goes to the side that completed a move, as Fischer clocks do.
    if (turn_ == mover) remaining_[mover] += increment_;
  } else if (plies_after >= 2) {
    running_ = true;  // both sides have moved: the clock starts for the side to move
  }
  turn_ = ~mover;
  since_ = now;
}

void GameClock::set_turn(Color next, SteadyTime now) {
  if (running_) remaining_[turn_] -= millis_between(since_, now);
  turn_ = next;
  since_ = now;
}

void GameClock::stop(SteadyTime now) {
  if (!running_) return;
  remaining_[turn_] -= millis_between(since_, now);
  running_ = false;
}

void GameClock::restore(Millis white, Millis black, bool running, Color turn, SteadyTime now) {
  remaining_[kWhite] = white;
  remaining_[kBlack] = black;
  running_ = running;
  turn_ = turn;
  since_ = now;
}

}  // namespace zh::emulator
