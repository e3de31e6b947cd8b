#pragma once
// How a simulated lichess user plays its side of a game (set per challenge by the admin API).

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace zh::emulator {

struct OpponentSpec {
  enum class Kind { kEngine, kScript, kRandom, kIdle };
  Kind kind = Kind::kRandom;
  // engine: Fairy-Stockfish skill (-20..20) and think time per move (0 = use the game clock).
  int skill = 0;
  int movetime_ms = 100;
  std::string engine_path;  // empty: the emulator's --engine default
  // script: the opponent's own moves in order (UCI); after them it plays `after_script`.
  std::vector<std::string> moves;
  Kind after_script = Kind::kIdle;
  int delay_ms = 0;            // wait before each move (a human's reaction time)
  int leave_at_ply = -1;       // leave (opponentGone) when it is to move at this ply or later
  int gone_claim_ms = 10'000;  // how long until the bot may claim after the opponent left
  int resign_at_ply = -1;      // resign when it is to move at this ply or later
  int offer_draw_at_ply = -1;
  bool accept_draw = false;
  bool accept_takeback = false;
  std::string greeting;  // a chat line sent at the start of the game
};

// Parses {"type":"engine|script|random|idle|leave", ...}; throws std::invalid_argument with a
// message naming the bad field.
OpponentSpec opponent_from_json(const nlohmann::json& j);
nlohmann::json opponent_to_json(const OpponentSpec& spec);
const char* kind_name(OpponentSpec::Kind kind);

}  // namespace zh::emulator
