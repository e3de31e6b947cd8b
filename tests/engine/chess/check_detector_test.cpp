// The check detector against playing the move, on every legal move of every perft position and
// of every position one move later (drops, promotions, castling, en passant, discovered checks).
#include "engine/chess/check_detector.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "engine/chess/bitboard.h"
#include "engine/chess/notation.h"
#include "tests/support/test_paths.h"

namespace zh {
namespace {

TEST(CheckDetector, AgreesWithPlayingTheMoveOnThePerftPositions) {
  std::ifstream in(zh::test::data_dir() + "/zh-perft.epd");
  ASSERT_TRUE(in) << "missing tests/data/zh-perft.epd";
  int positions = 0, checks = 0, discovered = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const Position root = Position::from_fen(line.substr(0, line.find(';')));
    std::vector<Position> all{root};
    for (Move m : root.legal_moves()) {
      Position next = root;
      next.do_move(m);
      all.push_back(next);
    }
    for (const Position& pos : all) {
      ++positions;
      const CheckDetector detector(pos);
      for (Move m : pos.legal_moves()) {
        Position next = pos;
        next.do_move(m);
        const bool check = next.in_check();
        ASSERT_EQ(detector.gives_check(m), check) << pos.fen() << " " << to_uci(m);
        ASSERT_EQ(pos.gives_check(m), check) << pos.fen() << " " << to_uci(m);
        checks += check;
        // A check by a piece other than the one that moved: uncovered.
        if (check && !m.is_drop() && !(next.checkers() & square_bb(m.to()))) ++discovered;
      }
    }
  }
  EXPECT_GT(positions, 1000);
  EXPECT_GT(checks, 1000);
  EXPECT_GT(discovered, 0);
}

TEST(CheckDetector, DropsAndDiscoveredChecks) {
  // Drops check from the square they land on; a bishop that moves off the e-file uncovers the
  // rook behind it, one that stays on it does not.
  const Position pos = Position::from_fen("4k3/8/8/8/8/4B3/8/4R1K1[NP] w - - 0 1");
  const CheckDetector d(pos);
  EXPECT_TRUE(d.gives_check(parse_uci(pos, "N@d6")));
  EXPECT_TRUE(d.gives_check(parse_uci(pos, "P@d7")));
  EXPECT_FALSE(d.gives_check(parse_uci(pos, "P@e7")));
  EXPECT_TRUE(d.gives_check(parse_uci(pos, "e3d4")));
  EXPECT_FALSE(d.gives_check(parse_uci(pos, "g1g2")));
}

}  // namespace
}  // namespace zh
