#pragma once
// Zobrist keys. The key covers the board, side to move, castling, the (legal) en passant
// file, each pocket count and the promoted-piece squares, so repetition compares them all.

#include <cstdint>

#include "engine/chess/types.h"

namespace zh::zobrist {

constexpr int kMaxPocketCount = 32;  // 30 capturable pieces at most

extern std::uint64_t piece_square[16][64];
extern std::uint64_t pocket[2][kPocketTypes][kMaxPocketCount + 1];  // [..][0] == 0
extern std::uint64_t promoted[64];
extern std::uint64_t castling[16];
extern std::uint64_t en_passant_file[8];
extern std::uint64_t side;

void init();  // called from init_bitboards()

}  // namespace zh::zobrist
