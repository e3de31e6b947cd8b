#pragma once
// Perft: counts the leaves of the legal move tree. The last ply is counted from the size of
// the generated legal move list (bulk counting), as Stockfish and Fairy-Stockfish do.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/chess/position.h"

namespace zh {

std::uint64_t perft(const Position& pos, int depth);
// Leaf count below each root move (in generation order).
std::vector<std::pair<Move, std::uint64_t>> perft_divide(const Position& pos, int depth);

}  // namespace zh
