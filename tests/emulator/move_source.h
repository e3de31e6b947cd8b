#pragma once
// Where the simulated opponent's moves come from: Fairy-Stockfish, a script, random legal
// moves, or nowhere (idle).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/chess/position.h"
#include "tests/emulator/clock.h"
#include "tests/emulator/opponent_spec.h"

namespace zh::emulator {

struct TurnView {
  Position position;               // the position to move in
  std::vector<std::string> moves;  // the game so far, UCI with castling as e1g1
  int ply = 0;
  Millis wtime = 0, btime = 0, increment = 0;
};

class MoveSource {
 public:
  virtual ~MoveSource() = default;
  // A UCI move, or empty when this opponent does not move.
  virtual std::string choose(const TurnView& turn) = 0;
};

// Throws std::runtime_error when an engine cannot be started.
std::unique_ptr<MoveSource> make_move_source(const OpponentSpec& spec, std::uint64_t seed,
                                             const std::string& default_engine);

}  // namespace zh::emulator
