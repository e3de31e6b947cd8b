#pragma once
// "Does this legal move give check?" without playing it: the one implementation, used by
// Position::gives_check and by the search's expansion (check enhancement, mate in one), which
// asks it for every legal move of every expanded node. The pins of the position are worked
// out once per detector; the rare castling, en passant and promotion moves are played.

#include "engine/chess/position.h"

namespace zh {

class CheckDetector {
 public:
  explicit CheckDetector(const Position& pos);
  bool gives_check(Move m) const;  // m must be legal in the position

 private:
  const Position& pos_;
  Bitboard occupied_;
  Bitboard discoverers_;  // our pieces whose leaving uncovers a check by our slider
  Square their_king_;
  Color us_;
};

}  // namespace zh
