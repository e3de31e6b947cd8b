#include "engine/chess/zobrist.h"

namespace zh::zobrist {

std::uint64_t piece_square[16][64];
std::uint64_t pocket[2][kPocketTypes][kMaxPocketCount + 1];
std::uint64_t promoted[64];
std::uint64_t castling[16];
std::uint64_t en_passant_file[8];
std::uint64_t side;

namespace {
// splitmix64: a fixed seed makes keys identical across runs (tests and logs can quote them).
std::uint64_t next(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
}  // namespace

void init() {
  std::uint64_t state = 0x7A68626F74ULL;  // "zhbot"
  for (auto& row : piece_square)
    for (auto& k : row) k = next(state);
  for (auto& colour : pocket)
    for (auto& type : colour) {
      type[0] = 0;
      for (int n = 1; n <= kMaxPocketCount; ++n) type[n] = next(state);
    }
  for (auto& k : promoted) k = next(state);
  castling[0] = 0;
  for (int i = 1; i < 16; ++i) castling[i] = next(state);
  for (auto& k : en_passant_file) k = next(state);
  side = next(state);
}

}  // namespace zh::zobrist
