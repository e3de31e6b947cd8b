#pragma once
// Basic value types of the crazyhouse rules core: colours, pieces, squares, bitboards.

#include <bit>
#include <cstdint>

namespace zh {

using Bitboard = std::uint64_t;

enum Color : std::uint8_t { kWhite = 0, kBlack = 1 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

// Pocket pieces are kPawn..kQueen, so those come first (the order of the pocket planes too).
enum PieceType : std::uint8_t {
  kPawn = 0,
  kKnight = 1,
  kBishop = 2,
  kRook = 3,
  kQueen = 4,
  kKing = 5,
  kNoPieceType = 6
};
constexpr int kPieceTypes = 6;
constexpr int kPocketTypes = 5;  // P N B R Q

// A coloured piece: colour * 8 + type; kNoPiece for an empty square.
enum Piece : std::uint8_t { kNoPiece = 255 };
constexpr Piece make_piece(Color c, PieceType pt) { return Piece(c * 8 + pt); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }

// Squares a1 = 0, b1 = 1, ..., h8 = 63 (little-endian rank-file mapping).
using Square = std::uint8_t;
constexpr Square kNoSquare = 64;
constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
// The same square seen from the other side (rank r -> 7 - r).
constexpr Square flip_rank(Square s) { return Square(s ^ 56); }

constexpr Bitboard square_bb(Square s) { return Bitboard{1} << s; }
constexpr Bitboard kRank1 = 0xFFULL;
constexpr Bitboard kRank8 = kRank1 << 56;
constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard rank_bb(int r) { return kRank1 << (8 * r); }
constexpr Bitboard file_bb(int f) { return kFileA << f; }

inline int popcount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

// Castling rights as a 4-bit set.
enum CastlingRight : std::uint8_t {
  kWhiteOO = 1,
  kWhiteOOO = 2,
  kBlackOO = 4,
  kBlackOOO = 8,
  kAllCastling = 15
};

}  // namespace zh
