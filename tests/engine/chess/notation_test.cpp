#include "engine/chess/notation.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "tests/support/test_paths.h"

namespace zh {
namespace {

std::vector<std::string> perft_fens() {
  std::ifstream in(zh::test::data_dir() + "/zh-perft.epd");
  std::vector<std::string> fens;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') fens.push_back(line.substr(0, line.find(" ;")));
  return fens;
}

// Every legal move of every perft position and of each of their children.
template <typename F>
void for_each_move(F&& check) {
  for (const auto& fen : perft_fens()) {
    const Position root = Position::from_fen(fen);
    for (Move m : root.legal_moves()) {
      check(root, m);
      Position child = root;
      child.do_move(m);
      for (Move reply : child.legal_moves()) check(child, reply);
    }
  }
}

TEST(Uci, RoundTripsEveryLegalMove) {
  int checked = 0;
  for_each_move([&](const Position& pos, Move m) {
    EXPECT_EQ(parse_uci(pos, to_uci(m)), m) << pos.fen() << " " << to_uci(m);
    EXPECT_EQ(parse_uci(pos, to_uci(m, CastlingNotation::kKingToRook)), m);
    ++checked;
  });
  EXPECT_GT(checked, 100000);
}

TEST(San, RoundTripsEveryLegalMoveAndIsUnique) {
  for_each_move([&](const Position& pos, Move m) {
    const std::string san = to_san(pos, m);
    EXPECT_EQ(parse_san(pos, san), m) << pos.fen() << " " << san;
  });
}

TEST(Uci, TextForms) {
  Position start;
  EXPECT_EQ(to_uci(parse_uci(start, "e2e4")), "e2e4");
  Position drops = Position::from_fen("2k5/8/8/8/8/8/8/4K3[Qn] b - - 0 1");
  EXPECT_EQ(to_uci(parse_uci(drops, "N@e4")), "N@e4");  // black drops are upper case too
  Position castle = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  Move oo = parse_uci(castle, "e1g1");
  EXPECT_TRUE(oo.is_castling());
  EXPECT_EQ(parse_uci(castle, "e1h1"), oo);  // lichess's king-to-rook form
  EXPECT_EQ(to_uci(oo), "e1g1");
  EXPECT_EQ(to_uci(oo, CastlingNotation::kKingToRook), "e1h1");
  EXPECT_EQ(to_uci(parse_uci(castle, "e1a1"), CastlingNotation::kKingTwoSquares), "e1c1");
  Position promo = Position::from_fen("8/4P3/8/8/8/8/8/k3K3 w - - 0 1");
  EXPECT_EQ(parse_uci(promo, "e7e8q").piece(), kQueen);
  EXPECT_EQ(parse_uci(promo, "e7e8n").piece(), kKnight);
}

TEST(San, Forms) {
  Position start;
  EXPECT_EQ(to_san(start, parse_uci(start, "g1f3")), "Nf3");
  Position knights = Position::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
  EXPECT_EQ(to_san(knights, parse_uci(knights, "b1d2")), "Nbd2");
  Position rooks = Position::from_fen("4k3/8/R7/8/8/8/8/R3K3 w - - 0 1");
  EXPECT_EQ(to_san(rooks, parse_uci(rooks, "a1a3")), "R1a3");
  Position queens = Position::from_fen("1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1");
  EXPECT_EQ(to_san(queens, parse_uci(queens, "h4e1")), "Qh4e1");
  Position ep =
      Position::from_fen("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR[] w KQkq d6 0 3");
  EXPECT_EQ(to_san(ep, parse_uci(ep, "e5d6")), "exd6");
  Position promo = Position::from_fen("k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(to_san(promo, parse_uci(promo, "e7e8q")), "e8=Q+");
  Position mate = Position::from_fen("6k1/5ppp/8/8/8/8/8/4K3[R] w - - 0 1");
  EXPECT_EQ(to_san(mate, parse_uci(mate, "R@e8")), "R@e8#");
  Position check =
      Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR[N] w KQkq - 0 1");
  EXPECT_EQ(to_san(check, parse_uci(check, "N@g5")), "N@g5");
  EXPECT_EQ(to_san(check, parse_uci(check, "c4f7")), "Bxf7+");
  Position castle = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_EQ(to_san(castle, parse_uci(castle, "e1c1")), "O-O-O");
  EXPECT_EQ(to_san(castle, parse_uci(castle, "e1h1")), "O-O");
}

TEST(San, ParsesAlternativeForms) {
  Position drops = Position::from_fen("2k5/8/8/8/8/8/8/4K3[P] w - - 0 1");
  EXPECT_EQ(parse_san(drops, "@e4"), Move::drop(kPawn, make_square(4, 3)));
  EXPECT_EQ(parse_san(drops, "P@e4"), Move::drop(kPawn, make_square(4, 3)));
  Position castle = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_EQ(parse_san(castle, "0-0"), parse_uci(castle, "e1g1"));
  Position promo = Position::from_fen("k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(parse_san(promo, "e8Q+"), parse_uci(promo, "e7e8q"));
  Position start;
  EXPECT_EQ(parse_san(start, "Nf3!?"), parse_uci(start, "g1f3"));
}

class BadMoveText : public testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(BadMoveText, UciIsRejectedWithAClearMessage) {
  const auto& [text, part] = GetParam();
  const Position pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R[Nq] w Kkq - 0 1");
  try {
    parse_uci(pos, text);
    FAIL() << "accepted " << text;
  } catch (const MoveError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Messages, BadMoveText,
    testing::Values(std::pair{"", "malformed"}, std::pair{"e2", "malformed"},
                    std::pair{"e2e4e5", "malformed"}, std::pair{"i2i4", "malformed"},
                    std::pair{"e7e8k", "promotion piece"}, std::pair{"K@e4", "malformed drop"},
                    std::pair{"X@e4", "malformed drop"}, std::pair{"N@z9", "malformed drop"},
                    std::pair{"Q@e4", "not legal"},  // white holds no queen
                    std::pair{"e1c1", "not legal"},  // queen-side right is gone
                    std::pair{"e1e3", "not legal"}, std::pair{"e2e4", "not legal"}));

TEST(San, RejectsMalformedAndAmbiguousText) {
  const Position knights = Position::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
  EXPECT_THROW(parse_san(knights, "Nd2"), MoveError);  // two knights reach d2
  EXPECT_THROW(parse_san(knights, "Zd2"), MoveError);
  EXPECT_THROW(parse_san(knights, "Nd9"), MoveError);
  EXPECT_THROW(parse_san(knights, "Q@e4"), MoveError);
  EXPECT_THROW(parse_san(knights, "O-O"), MoveError);
  EXPECT_THROW(parse_san(knights, ""), MoveError);
}

}  // namespace
}  // namespace zh
