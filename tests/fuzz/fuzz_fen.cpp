// FEN text (lichess crazyhouse form, with pockets): a parse either fails with FenError or
// gives a position that prints back to a FEN parsing to the same position, and on which move
// generation, SAN and a move work.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  zh::Position pos;
  try {
    pos = zh::Position::from_fen(text);
  } catch (const zh::FenError&) {
    return 0;
  }
  const std::string fen = pos.fen();
  const zh::Position again = zh::Position::from_fen(fen);  // must not throw
  ZH_FUZZ_CHECK(again.fen() == fen);
  const zh::MoveList moves = pos.legal_moves();
  for (const zh::Move m : moves) {
    ZH_FUZZ_CHECK(pos.is_legal(m));
    (void)zh::to_san(pos, m);
    (void)zh::to_uci(m);
  }
  if (!moves.empty()) {
    zh::Position next = pos;
    next.do_move(moves[int(size % std::size_t(moves.size()))]);
    (void)next.fen();
  }
  return 0;
}
