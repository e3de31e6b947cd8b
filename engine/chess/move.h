#pragma once
// A move in 16 bits: 6 bits from, 6 bits to, 4 bits kind.
// Drops keep the dropped piece type in the kind and leave `from` at 0.
// Castling is stored as the king's two-square move (e1g1), whatever notation it arrived in.

#include <cstdint>

#include "engine/chess/types.h"

namespace zh {

class Move {
 public:
  enum Kind : std::uint8_t {
    kNormal = 0,
    kCastling = 1,
    kEnPassant = 2,
    kPromoKnight = 4,  // kPromoKnight + (pt - kKnight) for N B R Q
    kDropPawn = 8,     // kDropPawn + pt for P N B R Q
  };

  constexpr Move() = default;
  static constexpr Move normal(Square from, Square to) { return Move(from, to, kNormal); }
  static constexpr Move castling(Square king_from, Square king_to) {
    return Move(king_from, king_to, kCastling);
  }
  static constexpr Move en_passant(Square from, Square to) { return Move(from, to, kEnPassant); }
  static constexpr Move promotion(Square from, Square to, PieceType pt) {
    return Move(from, to, unsigned(kPromoKnight) + (unsigned(pt) - unsigned(kKnight)));
  }
  static constexpr Move drop(PieceType pt, Square to) {
    return Move(0, to, unsigned(kDropPawn) + unsigned(pt));
  }
  static constexpr Move from_raw(std::uint16_t raw) {
    Move m;
    m.data_ = raw;
    return m;
  }

  constexpr Square from() const { return Square(data_ & 63); }
  constexpr Square to() const { return Square((data_ >> 6) & 63); }
  constexpr unsigned kind() const { return data_ >> 12; }
  constexpr bool is_drop() const { return kind() >= kDropPawn; }
  constexpr bool is_promotion() const { return kind() >= kPromoKnight && kind() < kDropPawn; }
  constexpr bool is_castling() const { return kind() == kCastling; }
  constexpr bool is_en_passant() const { return kind() == kEnPassant; }
  // The promotion piece (N B R Q) or the dropped piece (P N B R Q); kNoPieceType otherwise.
  constexpr PieceType piece() const {
    if (is_drop()) return PieceType(kind() - kDropPawn);
    if (is_promotion()) return PieceType(kind() - kPromoKnight + kKnight);
    return kNoPieceType;
  }
  constexpr std::uint16_t raw() const { return data_; }
  constexpr bool is_null() const { return data_ == 0; }

  friend constexpr bool operator==(Move a, Move b) { return a.data_ == b.data_; }
  friend constexpr bool operator!=(Move a, Move b) { return a.data_ != b.data_; }

 private:
  constexpr Move(Square from, Square to, unsigned kind)
      : data_(std::uint16_t(from | (to << 6) | (kind << 12))) {}
  std::uint16_t data_ = 0;  // 0 (a1a1, normal) is never a legal move: the null move
};

// Upper bound on legal moves in a crazyhouse position. Chess's known maximum (218) does not
// hold here: pawns dropped and promoted can put far more queens on the board, and drops add
// up to 5 kinds x 62 squares. 1024 covers every composition with room to spare.
constexpr int kMaxMoves = 1024;

// A fixed-capacity list filled by the move generator; no allocation.
struct MoveList {
  Move moves[kMaxMoves];
  int count = 0;
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + count; }
  int size() const { return count; }
  bool empty() const { return count == 0; }
  Move operator[](int i) const { return moves[i]; }
  bool contains(Move m) const {
    for (int i = 0; i < count; ++i)
      if (moves[i] == m) return true;
    return false;
  }
};

}  // namespace zh
