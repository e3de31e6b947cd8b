#pragma once
// The book tests' positions: the start position after a few moves in UCI notation.

#include <sstream>
#include <string>

#include "engine/chess/notation.h"
#include "engine/chess/position.h"

namespace zh::book::test {

inline Position after(const std::string& uci_moves) {
  Position pos;
  std::istringstream in(uci_moves);
  std::string m;
  while (in >> m) pos.do_move(parse_uci(pos, m));
  return pos;
}

}  // namespace zh::book::test
