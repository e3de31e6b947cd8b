#include "engine/nn/policy_map.h"

#include <algorithm>
#include <cstdlib>

namespace zh {
namespace {

constexpr int kQueenPlanes = 56;
constexpr int kKnightPlane0 = 56;
constexpr int kPromoPlane0 = 64;
constexpr int kDropPlane0 = 76;

// Direction order N NE E SE S SW W NW as (drank, dfile).
constexpr int kDirRank[8] = {1, 1, 0, -1, -1, -1, 0, 1};
constexpr int kDirFile[8] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr int kKnightRank[8] = {2, 1, -1, -2, -2, -1, 1, 2};
constexpr int kKnightFile[8] = {1, 2, 2, 1, -1, -2, -2, -1};

int sign(int x) { return (x > 0) - (x < 0); }

Square oriented(Square s, Color mover) { return mover == kBlack ? flip_rank(s) : s; }

// Plane of a board move by (drank, dfile) from the mover's view; -1 when none.
int move_plane(int dr, int df) {
  if (dr == 0 && df == 0) return -1;
  if (dr == 0 || df == 0 || std::abs(dr) == std::abs(df)) {
    const int dist = std::max(std::abs(dr), std::abs(df));
    for (int d = 0; d < 8; ++d)
      if (kDirRank[d] == sign(dr) && kDirFile[d] == sign(df)) return d * 7 + dist - 1;
  }
  for (int k = 0; k < 8; ++k)
    if (kKnightRank[k] == dr && kKnightFile[k] == df) return kKnightPlane0 + k;
  return -1;
}

bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

}  // namespace

int policy_index(Move m, Color mover) {
  if (m.is_null()) return -1;
  const Square to = oriented(m.to(), mover);
  if (m.is_drop()) return (kDropPlane0 + m.piece()) * 64 + to;

  const Square from = oriented(m.from(), mover);
  const int dr = rank_of(to) - rank_of(from);
  const int df = file_of(to) - file_of(from);
  if (m.is_promotion()) {
    if (std::abs(dr) != 1 || std::abs(df) > 1) return -1;
    return (kPromoPlane0 + (m.piece() - kKnight) * 3 + df + 1) * 64 + from;
  }
  const int p = move_plane(dr, df);
  return p < 0 ? -1 : p * 64 + from;
}

Move policy_move(int index, Color mover) {
  if (index < 0 || index >= kPolicySize) return Move();
  const int p = index / 64;
  const Square sq = Square(index % 64);
  const int file = file_of(sq), rank = rank_of(sq);

  if (p >= kDropPlane0) {
    const auto pt = PieceType(p - kDropPlane0);
    if (pt == kPawn && (rank == 0 || rank == 7)) return Move();
    return Move::drop(pt, oriented(sq, mover));
  }
  int dr = 0, df = 0;
  if (p >= kPromoPlane0) {
    // A promotion runs from the 7th to the 8th rank, or (labels of the other colour, which
    // CrazyAra keeps in the same table) from the 2nd to the 1st.
    if (rank != 6 && rank != 1) return Move();
    dr = rank == 6 ? 1 : -1;
    df = (p - kPromoPlane0) % 3 - 1;
    if (!on_board(file + df, rank + dr)) return Move();
    const auto pt = PieceType(kKnight + (p - kPromoPlane0) / 3);
    const Square to = make_square(file + df, rank + dr);
    return Move::promotion(oriented(sq, mover), oriented(to, mover), pt);
  }
  if (p < kQueenPlanes) {
    const int dir = p / 7, dist = p % 7 + 1;
    dr = kDirRank[dir] * dist;
    df = kDirFile[dir] * dist;
  } else {
    dr = kKnightRank[p - kKnightPlane0];
    df = kKnightFile[p - kKnightPlane0];
  }
  if (!on_board(file + df, rank + dr)) return Move();
  const Square to = make_square(file + df, rank + dr);
  return Move::normal(oriented(sq, mover), oriented(to, mover));
}

}  // namespace zh
