#pragma once
// A lichess challenge between the bot account and a simulated user, in either direction.

#include <cstdint>
#include <string>

#include "tests/emulator/clock.h"
#include "tests/emulator/emu_game.h"
#include "tests/emulator/opponent_spec.h"

namespace zh::emulator {

struct Challenge {
  std::string id;  // 8 characters; the game gets the same id when it is accepted
  PlayerInfo challenger;
  PlayerInfo dest;
  bool incoming = true;  // addressed to the bot (direction "in")
  std::string variant = "crazyhouse";
  bool has_clock = true;  // false: unlimited (or correspondence when days > 0)
  int limit_s = 180;
  int increment_s = 2;
  int days = 0;
  Millis initial_ms_override = 0;  // admin only: a shorter clock than lichess allows (tests)
  bool rated = false;
  std::string color = "random";    // what the challenger asked for
  Color final_color = kWhite;      // the challenger's actual colour
  std::string status = "created";  // created accepted declined canceled offline
  std::string decline_reason_key;  // lower case, as lichess emits it
  OpponentSpec opponent;           // how the simulated user will play
  SteadyTime created{};
  std::int64_t created_epoch_ms = 0;
};

// Lichess speed from the estimated game duration (limit + 40 * increment seconds).
std::string speed_of(bool has_clock, int limit_s, int increment_s, int days);

}  // namespace zh::emulator
