#pragma once
// The network's policy output: CrazyAra's "policy map" of 81 planes x 64 squares = 5184
// logits (paper Table 2; docs/network-io.md). Flat index = plane * 64 + square, after mirroring
// black's moves vertically (rank r -> 9 - r) so the mover always plays "up the board".
//   planes  0-55  queen-like moves: direction (N NE E SE S SW W NW) * 7 + distance - 1,
//                 at the from-square (pawn pushes, king moves and castling included)
//   planes 56-63  knight moves (drank, dfile) = (+2,+1) (+1,+2) (-1,+2) (-2,+1)
//                 (-2,-1) (-1,-2) (+1,-2) (+2,-1), at the from-square
//   planes 64-75  promotions: 64 + piece * 3 + (dfile + 1), piece n b r q = 0..3,
//                 at the from-square (queen promotions are here, not in the queen planes)
//   planes 76-80  drops P N B R Q, at the target square
// Castling is the king's two-square move whatever notation it arrived in (Move stores it so).

#include "engine/chess/move.h"
#include "engine/chess/types.h"

namespace zh {

inline constexpr int kPolicyPlanes = 81;
inline constexpr int kPolicySize = kPolicyPlanes * 64;  // 5184
// How many distinct indices crazyhouse move labels use (CrazyAra's NB_LABELS).
inline constexpr int kPolicyLabels = 2272;

// The flat index of `m` played by `mover`, or -1 for the null move and for shapes that no
// crazyhouse move has (e.g. a "move" that is neither a line nor a knight jump).
int policy_index(Move m, Color mover);

// The inverse, for tests and tools: the plain move (normal, promotion or drop; castling and
// en passant come back as normal moves with the same squares) that `mover` plays through
// `index`, or the null move when no move label uses that index.
Move policy_move(int index, Color mover);

}  // namespace zh
