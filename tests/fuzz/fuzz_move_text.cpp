// Move text from the network and from users: UCI ("e2e4", "P@e4", "e7e8q") and SAN ("Nxe4+",
// "P@f7#", "O-O"). The first byte picks a position; the rest is parsed as both. A parse either
// throws MoveError or gives a legal move that prints back to text parsing to the same move.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

// Start, a middle game with full pockets and promoted pieces, and a promotion/castling/en
// passant position: what the move parsers meet.
const char* const kFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    "r1b1k2r/ppp2ppp/2n5/3qp3/1b1P4/2N2N2/PPP2PPP/R2QKB1R[BPPnp] w KQkq - 0 8",
    "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R[QRBNPqrbnp] w KQkq d6 0 30",
    "4k3/8/8/8/8/8/8/4K3[QqPp] b - - 0 60",
};

void check(const zh::Position& pos, zh::Move m) {
  ZH_FUZZ_CHECK(pos.is_legal(m));
  ZH_FUZZ_CHECK(zh::parse_uci(pos, zh::to_uci(m)) == m);
  ZH_FUZZ_CHECK(zh::parse_san(pos, zh::to_san(pos, m)) == m);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const auto positions = [] {
    std::vector<zh::Position> out;
    for (const char* fen : kFens) out.push_back(zh::Position::from_fen(fen));
    return out;
  }();
  const zh::Position& pos = positions[data[0] % positions.size()];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    check(pos, zh::parse_uci(pos, text));
  } catch (const zh::MoveError&) {
  }
  try {
    check(pos, zh::parse_san(pos, text));
  } catch (const zh::MoveError&) {
  }
  (void)zh::parse_square(text);
  return 0;
}
