#include "engine/nn/policy_map.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/chess/game.h"
#include "engine/chess/notation.h"
#include "nn_test_util.h"

namespace zh {
namespace {

int index_of(const char* fen_or_empty, const char* uci) {
  const Position pos = *fen_or_empty ? Position::from_fen(fen_or_empty) : Position();
  return policy_index(parse_uci(pos, uci), pos.side_to_move());
}

// The worked examples of docs/network-io.md.
TEST(PolicyMapTest, WorkedExamples) {
  EXPECT_EQ(index_of("", "e2e4"), 76);
  EXPECT_EQ(index_of("", "g1f3"), 4038);
  const char* castle = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[] w KQkq - 0 1";
  EXPECT_EQ(index_of(castle, "e1g1"), 964);
  EXPECT_EQ(index_of(castle, "e1h1"), 964);  // lichess's king-to-rook form, same move
  EXPECT_EQ(index_of(castle, "e1c1"), 2756);
  EXPECT_EQ(index_of(castle, "e1a1"), 2756);
  const char* promo = "3q3k/4P3/8/8/8/8/8/4K3[PN] w - - 0 1";
  EXPECT_EQ(index_of(promo, "e7e8q"), 4788);
  EXPECT_EQ(index_of(promo, "e7d8n"), 4148);
  EXPECT_EQ(index_of(promo, "P@e4"), 4892);
  EXPECT_EQ(index_of(promo, "N@f3"), 4949);
  EXPECT_EQ(index_of("1r2k3/P7/8/8/8/8/8/4K3[] w - - 0 1", "a7b8r"), 4656);
  EXPECT_EQ(index_of("4k3/8/8/8/8/8/8/3QK3[] w - - 0 1", "d1h5"), 643);
  EXPECT_EQ(index_of("4k3/8/8/8/8/8/4p3/K7[] b - - 0 1", "e2e1q"), 4788);
  EXPECT_EQ(index_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1", "e7e5"), 76);
}

TEST(PolicyMapTest, NullAndShapelessMovesHaveNoIndex) {
  EXPECT_EQ(policy_index(Move(), kWhite), -1);
  EXPECT_EQ(policy_index(Move::normal(0, 17), kWhite), 56 * 64 + 0);  // a1 -> b3: knight
  EXPECT_EQ(policy_index(Move::normal(0, 19), kWhite), -1);  // a1 -> d3: no line, no knight
  EXPECT_EQ(policy_move(-1, kWhite), Move());
  EXPECT_EQ(policy_move(kPolicySize, kWhite), Move());
}

// CrazyAra's label list (its OutputRepresentation::init_labels order), rebuilt here from its
// description so that the table test does not depend on the code under test.
std::vector<std::string> crazyhouse_labels() {
  auto name = [](int f, int r) { return std::string{char('a' + f), char('1' + r)}; };
  auto ok = [](int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; };
  std::vector<std::string> labels;
  for (int f = 0; f < 8; ++f)
    for (int r = 0; r < 8; ++r) {
      std::vector<std::pair<int, int>> to;
      for (int i = 0; i < 8; ++i) to.push_back({i, r}), to.push_back({f, i});
      for (int i = -7; i <= 7; ++i) to.push_back({f + i, r + i}), to.push_back({f + i, r - i});
      const int kn[8][2] = {{-2, -1}, {-1, -2}, {-2, 1}, {1, -2}, {2, -1}, {-1, 2}, {2, 1}, {1, 2}};
      for (const auto& k : kn) to.push_back({f + k[0], r + k[1]});
      for (const auto& [tf, tr] : to)
        if (ok(tf, tr) && !(tf == f && tr == r)) labels.push_back(name(f, r) + name(tf, tr));
    }
  for (int f = 0; f < 8; ++f)
    for (char p : std::string("qrbn")) {
      labels.push_back(name(f, 1) + name(f, 0) + p);
      labels.push_back(name(f, 6) + name(f, 7) + p);
      for (int df : {-1, 1})
        if (ok(f + df, 0)) {
          labels.push_back(name(f, 1) + name(f + df, 0) + p);
          labels.push_back(name(f, 6) + name(f + df, 7) + p);
        }
    }
  for (int f = 0; f < 8; ++f)
    for (int r = 0; r < 8; ++r)
      for (char p : std::string("PNBRQ"))
        if (p != 'P' || (r != 0 && r != 7)) labels.push_back(std::string{p, '@'} + name(f, r));
  return labels;
}

// A label as a plain move (no position needed: normal, promotion or drop).
Move label_move(const std::string& label) {
  if (label[1] == '@') {
    const auto pt = PieceType(std::string("PNBRQ").find(label[0]));
    return Move::drop(pt, parse_square(label.substr(2, 2)));
  }
  const Square from = parse_square(label.substr(0, 2)), to = parse_square(label.substr(2, 2));
  if (label.size() == 5)
    return Move::promotion(from, to, PieceType(1 + std::string("nbrq").find(label[4])));
  return Move::normal(from, to);
}

std::string mirrored(std::string label) {
  for (char& c : label)
    if (c >= '1' && c <= '8') c = char('1' + '8' - c);
  return label;
}

TEST(PolicyMapTest, EveryLabelHasADistinctIndexAndComesBackForBothColours) {
  const auto labels = crazyhouse_labels();
  ASSERT_EQ(labels.size(), static_cast<std::size_t>(kPolicyLabels));
  std::set<int> seen;
  for (const auto& label : labels) {
    SCOPED_TRACE(label);
    const Move white = label_move(label);
    const Move black = label_move(mirrored(label));
    const int index = policy_index(white, kWhite);
    ASSERT_GE(index, 0);
    ASSERT_LT(index, kPolicySize);
    EXPECT_TRUE(seen.insert(index).second) << "index " << index << " used twice";
    EXPECT_EQ(policy_index(black, kBlack), index);  // black's move mirrored onto white's
    EXPECT_EQ(policy_move(index, kWhite), white);
    EXPECT_EQ(policy_move(index, kBlack), black);
  }
  // Exactly the labels' indices decode to a move.
  for (Color c : {kWhite, kBlack}) {
    int decodable = 0;
    for (int i = 0; i < kPolicySize; ++i)
      if (!policy_move(i, c).is_null()) {
        ++decodable;
        EXPECT_TRUE(seen.count(i)) << i;
      }
    EXPECT_EQ(decodable, kPolicyLabels);
  }
}

TEST(PolicyMapTest, MatchesPythonIndicesOfAllLegalMoves) {
  for (const auto& p : test::nn_reference().at("positions")) {
    SCOPED_TRACE(p.at("name").get<std::string>());
    const Position pos = Position::from_fen(p.at("fen").get<std::string>());
    const auto& indices = p.at("policy_indices");
    EXPECT_EQ(indices.size(), static_cast<std::size_t>(pos.legal_moves().size()));
    for (const auto& [uci, index] : indices.items())
      EXPECT_EQ(policy_index(parse_uci(pos, uci), pos.side_to_move()), index.get<int>()) << uci;
  }
}

// Legal moves of random crazyhouse games: each maps to a distinct index that decodes back to
// the same squares and piece (castling and en passant come back as plain moves).
TEST(PolicyMapTest, LegalMovesOfRandomGamesRoundTrip) {
  std::mt19937 rng(7);
  int checked = 0;
  for (int g = 0; g < 30; ++g) {
    Game game;
    for (int ply = 0; ply < 120; ++ply) {
      const Position& pos = game.position();
      const MoveList moves = pos.legal_moves();
      if (moves.empty()) break;
      std::set<int> seen;
      for (Move m : moves) {
        const int index = policy_index(m, pos.side_to_move());
        ASSERT_GE(index, 0) << to_uci(m) << " in " << pos.fen();
        EXPECT_TRUE(seen.insert(index).second) << to_uci(m) << " in " << pos.fen();
        const Move back = policy_move(index, pos.side_to_move());
        EXPECT_EQ(back.from(), m.from());
        EXPECT_EQ(back.to(), m.to());
        EXPECT_EQ(back.piece(), m.piece());
        ++checked;
      }
      game.play(moves[static_cast<int>(rng() % moves.size())]);
    }
  }
  EXPECT_GT(checked, 10000);
}

}  // namespace
}  // namespace zh
