#pragma once
// Attack tables: leapers precomputed, sliders through PEXT (BMI2) or magic multiplication.
// Tables are filled once by init_bitboards(), which Position's constructors call.

#include "engine/chess/types.h"

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace zh {

struct SliderTable {
  Bitboard mask = 0;   // relevant occupancy (board edges excluded)
  Bitboard magic = 0;  // unused with PEXT
  Bitboard* attacks = nullptr;
  unsigned shift = 0;

  unsigned index(Bitboard occupied) const {
#if defined(__BMI2__)
    return unsigned(_pext_u64(occupied, mask));
#else
    return unsigned(((occupied & mask) * magic) >> shift);
#endif
  }
};

namespace tables {
extern SliderTable rook[64];
extern SliderTable bishop[64];
extern Bitboard knight[64];
extern Bitboard king[64];
extern Bitboard pawn[2][64];      // squares a pawn of that colour attacks
extern Bitboard between[64][64];  // squares strictly between two aligned squares, else 0
extern Bitboard line[64][64];     // the full line through two aligned squares, else 0
}  // namespace tables

// Idempotent and thread-safe; cheap after the first call.
void init_bitboards();

inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  const SliderTable& t = tables::rook[s];
  return t.attacks[t.index(occupied)];
}
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const SliderTable& t = tables::bishop[s];
  return t.attacks[t.index(occupied)];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return rook_attacks(s, occupied) | bishop_attacks(s, occupied);
}
inline Bitboard knight_attacks(Square s) { return tables::knight[s]; }
inline Bitboard king_attacks(Square s) { return tables::king[s]; }
inline Bitboard pawn_attacks(Color c, Square s) { return tables::pawn[c][s]; }
inline Bitboard between_bb(Square a, Square b) { return tables::between[a][b]; }
inline Bitboard line_bb(Square a, Square b) { return tables::line[a][b]; }

// Attacks of a non-pawn piece type from `s`.
inline Bitboard piece_attacks(PieceType pt, Square s, Bitboard occupied) {
  switch (pt) {
    case kKnight:
      return knight_attacks(s);
    case kBishop:
      return bishop_attacks(s, occupied);
    case kRook:
      return rook_attacks(s, occupied);
    case kQueen:
      return queen_attacks(s, occupied);
    case kKing:
      return king_attacks(s);
    default:
      return 0;
  }
}

// Shifts a whole bitboard one rank towards the opponent of `c`.
template <Color c>
constexpr Bitboard push_forward(Bitboard b) {
  return c == kWhite ? b << 8 : b >> 8;
}

}  // namespace zh
