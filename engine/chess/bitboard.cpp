#include "engine/chess/bitboard.h"

#include <cstdint>
#include <mutex>
#include <vector>

#include "engine/chess/zobrist.h"

namespace zh {
namespace tables {
SliderTable rook[64];
SliderTable bishop[64];
Bitboard knight[64];
Bitboard king[64];
Bitboard pawn[2][64];
Bitboard between[64][64];
Bitboard line[64][64];
}  // namespace tables

namespace {

// Sizes with the standard relevant-occupancy masks: sum over squares of 2^bits(mask).
constexpr int kRookTableSize = 102400;
constexpr int kBishopTableSize = 5248;
Bitboard rook_storage[kRookTableSize];
Bitboard bishop_storage[kBishopTableSize];

constexpr int kRookDirs[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, -1}, {-1, 1}};

bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

Bitboard slide(Square s, Bitboard occupied, const int (&dirs)[4][2]) {
  Bitboard result = 0;
  for (const auto& d : dirs) {
    int f = file_of(s) + d[0], r = rank_of(s) + d[1];
    while (on_board(f, r)) {
      Square to = make_square(f, r);
      result |= square_bb(to);
      if (occupied & square_bb(to)) break;
      f += d[0];
      r += d[1];
    }
  }
  return result;
}

Bitboard leaper(Square s, const int (*deltas)[2], int n) {
  Bitboard result = 0;
  for (int i = 0; i < n; ++i) {
    int f = file_of(s) + deltas[i][0], r = rank_of(s) + deltas[i][1];
    if (on_board(f, r)) result |= square_bb(make_square(f, r));
  }
  return result;
}

// Small xorshift generator for the magic search (fixed seed: same magics every run).
struct Xorshift {
  std::uint64_t s = 0x9E3779B97F4A7C15ULL;
  std::uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
  std::uint64_t sparse() { return next() & next() & next(); }
};

void init_slider(SliderTable* table, Bitboard* storage, const int (&dirs)[4][2]) {
  Xorshift rng;
  std::vector<Bitboard> occupancies, attacks;
  std::vector<int> epoch(4096, 0);
  int attempt = 0;
  for (int s = 0; s < 64; ++s) {
    Square sq = Square(s);
    Bitboard edges = ((kRank1 | kRank8) & ~rank_bb(rank_of(sq))) |
                     ((file_bb(0) | file_bb(7)) & ~file_bb(file_of(sq)));
    SliderTable& t = table[s];
    t.mask = slide(sq, 0, dirs) & ~edges;
    t.attacks = storage;
    int bits = popcount(t.mask);
    t.shift = unsigned(64 - bits);

    // Enumerate every subset of the mask (carry-rippler) with its attack set.
    occupancies.clear();
    attacks.clear();
    Bitboard subset = 0;
    do {
      occupancies.push_back(subset);
      attacks.push_back(slide(sq, subset, dirs));
      subset = (subset - t.mask) & t.mask;
    } while (subset);
    const int size = int(occupancies.size());

#if defined(__BMI2__)
    for (int i = 0; i < size; ++i) storage[t.index(occupancies[i])] = attacks[i];
#else
    // Find a magic that maps every subset to a slot without destructive collisions.
    for (bool found = false; !found;) {
      do {
        t.magic = rng.sparse();
      } while (popcount((t.mask * t.magic) >> 56) < 6);
      ++attempt;
      found = true;
      for (int i = 0; i < size; ++i) {
        unsigned idx = t.index(occupancies[i]);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          storage[idx] = attacks[i];
        } else if (storage[idx] != attacks[i]) {
          found = false;
          break;
        }
      }
    }
#endif
    storage += size;
  }
  (void)attempt;
}

void init_all() {
  constexpr int kKnightDeltas[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                       {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  constexpr int kKingDeltas[8][2] = {{0, 1},  {1, 1},   {1, 0},  {1, -1},
                                     {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}};
  constexpr int kWhitePawn[2][2] = {{-1, 1}, {1, 1}};
  constexpr int kBlackPawn[2][2] = {{-1, -1}, {1, -1}};
  for (int s = 0; s < 64; ++s) {
    tables::knight[s] = leaper(Square(s), kKnightDeltas, 8);
    tables::king[s] = leaper(Square(s), kKingDeltas, 8);
    tables::pawn[kWhite][s] = leaper(Square(s), kWhitePawn, 2);
    tables::pawn[kBlack][s] = leaper(Square(s), kBlackPawn, 2);
  }
  zobrist::init();
  init_slider(tables::rook, rook_storage, kRookDirs);
  init_slider(tables::bishop, bishop_storage, kBishopDirs);

  for (int a = 0; a < 64; ++a) {
    for (int b = 0; b < 64; ++b) {
      tables::between[a][b] = tables::line[a][b] = 0;
      if (a == b) continue;
      const Bitboard bb = square_bb(Square(b));
      for (const auto* dirs : {&kRookDirs, &kBishopDirs}) {
        if (slide(Square(a), 0, *dirs) & bb) {
          tables::between[a][b] =
              slide(Square(a), bb, *dirs) & slide(Square(b), square_bb(Square(a)), *dirs);
          tables::line[a][b] =
              (slide(Square(a), 0, *dirs) & slide(Square(b), 0, *dirs)) | square_bb(Square(a)) | bb;
        }
      }
    }
  }
}

}  // namespace

void init_bitboards() {
  static std::once_flag once;
  std::call_once(once, init_all);
}

}  // namespace zh
