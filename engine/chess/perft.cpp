#include "engine/chess/perft.h"

namespace zh {

std::uint64_t perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  MoveList moves;
  pos.legal_moves(moves);
  if (depth == 1) return std::uint64_t(moves.count);
  std::uint64_t nodes = 0;
  for (Move m : moves) {
    Position next = pos;
    next.do_move(m);
    nodes += perft(next, depth - 1);
  }
  return nodes;
}

std::vector<std::pair<Move, std::uint64_t>> perft_divide(const Position& pos, int depth) {
  std::vector<std::pair<Move, std::uint64_t>> result;
  for (Move m : pos.legal_moves()) {
    Position next = pos;
    next.do_move(m);
    result.emplace_back(m, perft(next, depth - 1));
  }
  return result;
}

}  // namespace zh
