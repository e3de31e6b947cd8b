#pragma once
// What one search may spend and how its move is chosen, in one type from the caller to the
// engine: UCI `go` fills it from its tokens, the lichess session from the game state, and the
// stop rules read it.

#include <cstdint>
#include <optional>

namespace zh {

struct SearchLimits {
  std::optional<std::int64_t> wtime, btime;  // ms on each clock; both absent: untimed
  std::int64_t winc = 0, binc = 0;           // ms
  int movestogo = 0;                         // 0 = sudden death
  std::int64_t movetime = 0;                 // ms for this move; 0 = none
  std::int64_t nodes = 0;                    // playouts in this search; 0 = none
  bool infinite = false;                     // until stop()
  bool ponder = false;                       // until ponderhit() (then the clock rules) or stop()
  bool human_opponent = false;               // enables the time jitter (eq. 9)
  std::int64_t min_think_ms = 0;             // against humans: never answer faster than this
  // Opening sampling: while fewer than this many of our moves are played, the move is drawn
  // with the search temperature instead of taken best (the bot: 4 against humans, as the paper).
  int sampled_moves = 0;
};

}  // namespace zh
