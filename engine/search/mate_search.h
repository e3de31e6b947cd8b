#pragma once
// A short mate search for crazyhouse, run beside the tree (design 2d): an AND/OR search in
// which the attacker plays only checks (board moves and drops) and the defender every legal
// evasion (king moves, captures, interpositions, drop blocks). Iterative deepening over odd
// depths 1, 3, 5, ... finds the shortest mate within the depth, under a node budget; the
// 1-ply case is the old mate-in-one test at expansion.
//
// Repetitions: a line that repeats a position (of its own or of the game and the tree path
// before it) is a draw, never a mate. A proof that needed such a cut depends on the path and
// says so (`uses_history`), so the caller does not share it with transpositions.
//
// One object per thread: it keeps its scratch memory between calls, nothing else.

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "engine/chess/position.h"
#include "engine/search/line_keys.h"

namespace zh {

struct MateLimits {
  int max_plies = 3;           // odd: 1 is mate in one, 3 mate in two, ...
  std::int64_t max_nodes = 0;  // positions played; 0 = no budget
};

struct MateProof {
  Move move;                  // the first move of the mate; null when none was found
  int plies = 0;              // plies to mate (1 = mate in one), 0 = none found
  bool uses_history = false;  // a line was cut by a repetition of an earlier position
  std::int64_t nodes = 0;     // positions played by the search
  bool found() const { return plies > 0; }
};

class MateSearch {
 public:
  // Searches `pos` for a forced mate by its side to move. `earlier` holds the keys of the
  // positions that came before it (game and tree path); a line that returns to one of them
  // is a draw.
  MateProof find(const Position& pos, const MateLimits& limits,
                 std::span<const std::uint64_t> earlier = {});

  // The main line of a mate of at most `plies` from `pos`: the attacker's shortest mate, the
  // defender's longest resistance, move by move, as far as `max_nodes` per step can show it.
  // `attacker`: whether the side to move at `pos` mates (else it is the one mated).
  std::vector<Move> line(const Position& pos, int plies, bool attacker,
                         std::int64_t max_nodes = 20000);

 private:
  bool attack(const Position& pos, int depth, Move* first);
  bool defend(const Position& pos, int depth);
  bool out_of_budget() { return budget_ > 0 && nodes_ >= budget_; }

  // One move list per ply: MoveList is 2 KiB, too big for a deep recursion's stack frames.
  std::vector<MoveList> lists_;
  std::vector<std::vector<std::pair<int, Move>>> order_;  // checks by replies left, per ply
  LineKeys line_;
  std::int64_t nodes_ = 0;
  std::int64_t budget_ = 0;
  bool aborted_ = false;
};

}  // namespace zh
