#include "engine/search/mate_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/chess/bitboard.h"
#include "engine/chess/notation.h"
#include "tests/engine/search/mate_suite.h"

namespace zh {
namespace {

MateProof find(const std::string& fen, int plies, std::int64_t nodes = 0) {
  MateSearch search;
  return search.find(Position::from_fen(fen), MateLimits{plies, nodes});
}

// Whether `proof` is a real mate of its length: its move checks, and after it every reply
// still loses within the plies left (checked by the same search, one level down, which is
// exhaustive over the defender's moves).
bool proof_holds(const Position& pos, const MateProof& proof) {
  if (!proof.found() || !pos.is_legal(proof.move) || !pos.gives_check(proof.move)) return false;
  Position next = pos;
  next.do_move(proof.move);
  if (proof.plies == 1) return next.is_checkmate();
  for (Move reply : next.legal_moves()) {
    Position after = next;
    after.do_move(reply);
    MateSearch again;
    const MateProof rest = again.find(after, MateLimits{proof.plies - 2, 0});
    if (!rest.found() || !proof_holds(after, rest)) return false;
  }
  return true;
}

TEST(MateSearch, ChecksGeneratorIsTheCheckingSubsetOfLegalMoves) {
  // Pockets full on both sides, promotions, en passant and castling all available.
  for (const char* fen :
       {"r3k2r/1P3ppp/8/3pP3/8/8/5PPP/R3K2R[QRBNPqrbnp] w KQkq d6 0 20",
        "4k3/8/8/8/8/8/8/R3K2R[NNPPb] w KQ - 0 1", "r1b1k2r/ppp2ppp/8/8/1q6/8/3K4/8[QN] w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"}) {
    const Position pos = Position::from_fen(fen);
    std::vector<std::uint16_t> want, have;
    for (Move m : pos.legal_moves())
      if (pos.gives_check(m)) want.push_back(m.raw());
    MoveList checks;
    pos.legal_checks(checks);
    for (Move m : checks) have.push_back(m.raw());
    std::sort(want.begin(), want.end());
    std::sort(have.begin(), have.end());
    EXPECT_EQ(have, want) << fen;
  }
}

TEST(MateSearch, DropMateInOne) {
  const MateProof p = find("6k1/5ppp/8/8/8/8/8/4K3[R] w - - 0 1", 1);
  ASSERT_TRUE(p.found());
  EXPECT_EQ(p.plies, 1);
  EXPECT_TRUE(p.move.is_drop());
  EXPECT_TRUE(proof_holds(Position::from_fen("6k1/5ppp/8/8/8/8/8/4K3[R] w - - 0 1"), p));
}

TEST(MateSearch, SmotheredMateByAKnightDrop) {
  const MateProof p = find("6rk/6pp/8/8/8/8/8/4K3[N] w - - 0 1", 3);
  ASSERT_TRUE(p.found());
  EXPECT_EQ(to_uci(p.move), "N@f7");
  EXPECT_EQ(p.plies, 1);
}

TEST(MateSearch, PromotionMate) {
  const std::string fen = "7k/P5pp/8/8/8/8/8/4K3[] w - - 0 1";
  const MateProof p = find(fen, 1);
  ASSERT_TRUE(p.found());
  EXPECT_TRUE(p.move.is_promotion());
  EXPECT_TRUE(proof_holds(Position::from_fen(fen), p));
}

TEST(MateSearch, EnPassantUncoversMate) {
  // Black has just played d7-d5; exd6 e.p. opens the e-file onto the king (Nb6 holds d7).
  const std::string fen = "3rkr2/5p2/1N6/3pP3/8/8/8/4RK2[] w - d6 0 2";
  const MateProof p = find(fen, 1);
  ASSERT_TRUE(p.found());
  EXPECT_EQ(to_uci(p.move), "e5d6");
  EXPECT_TRUE(p.move.is_en_passant());
}

TEST(MateSearch, DoubleCheckMate) {
  // The knight checks from f7 or g6 and uncovers the bishop on the long diagonal: only the king
  // may move, and g7 is still on the diagonal.
  const std::string fen = "6rk/7p/6p1/4N3/8/8/1B6/4K3[] w - - 0 1";
  const MateProof p = find(fen, 3);
  ASSERT_TRUE(p.found());
  EXPECT_EQ(p.plies, 1);
  Position after = Position::from_fen(fen);
  after.do_move(p.move);
  EXPECT_TRUE(after.is_checkmate());
  EXPECT_EQ(popcount(after.checkers()), 2);
}

TEST(MateSearch, DropBlockRefutesTheBackRankMate) {
  // As DropMateInOne, but Black holds a knight: every rook check on the back rank is blocked on
  // f8, where the king takes back.
  const std::string fen = "6k1/5ppp/8/8/8/8/8/4K3[Rn] w - - 0 1";
  EXPECT_FALSE(find(fen, 1).found());
  EXPECT_FALSE(find(fen, 5).found());
}

TEST(MateSearch, CaptureRefutesTheBackRankMate) {
  // The rook on a8 takes every rook dropped on the back rank.
  const std::string fen = "r5k1/5ppp/8/8/8/8/8/4K3[R] w - - 0 1";
  EXPECT_FALSE(find(fen, 3).found());
}

TEST(MateSearch, LineShowsTheMateMoveByMove) {
  // 1. Q@g8+ Rxg8 2. N@f7# (the bishop on c4 guards g8): the attacker's moves and the one reply.
  const Position pos = Position::from_fen("5r1k/6pp/8/8/2B5/8/5PPP/6K1[QN] w - - 0 1");
  MateSearch search;
  std::vector<std::string> line;
  for (Move m : search.line(pos, 3, true)) line.push_back(to_uci(m));
  EXPECT_EQ(line, (std::vector<std::string>{"Q@g8", "f8g8", "N@f7"}));
  // From the defender's side after the first move: the reply, then the mate.
  Position after = pos;
  after.do_move(parse_uci(pos, "Q@g8"));
  EXPECT_EQ(search.line(after, 2, false).size(), 2u);
}

TEST(MateSearch, NoChecksNoMate) {
  const MateProof p = find(Position::kStartFen.data(), 7);
  EXPECT_FALSE(p.found());
  EXPECT_EQ(p.nodes, 0);
}

TEST(MateSearch, BudgetStopsTheSearchAndProvesNothing) {
  // Full pockets on an open board: checks everywhere, and a budget of 50 positions.
  const std::string fen = "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1";
  const MateProof p = find(fen, 7, 50);
  EXPECT_LE(p.nodes, 51);
  EXPECT_GT(p.nodes, 0);
}

using test::mate_suite;

TEST(MateSearch, RepetitionIsADrawNotAMate) {
  // Take a mate in two the search proves, and make one position of its proof (after the first
  // check and a reply) a position the game already had: that reply now draws, so the first
  // check is no mate any more, and the answer says it depended on the history.
  for (const auto& [fen, n] : mate_suite()) {
    if (n != 2) continue;
    const Position pos = Position::from_fen(fen);
    MateSearch search;
    const MateProof p = search.find(pos, MateLimits{3, 0});
    if (!p.found() || p.plies != 3) continue;
    EXPECT_FALSE(p.uses_history);
    Position after = pos;
    after.do_move(p.move);
    after.do_move(after.legal_moves()[0]);
    const std::vector<std::uint64_t> earlier = {after.key()};
    const MateProof q = search.find(pos, MateLimits{3, 0}, earlier);
    EXPECT_TRUE(q.uses_history);
    if (q.found()) {
      EXPECT_NE(q.move, p.move) << fen;
    }
    return;
  }
  FAIL() << "no mate in two of the suite was proven";
}

// Every position of the project's mate suite (mate in n by Fairy-Stockfish at depth 16): a mate
// the search finds is never shorter than the true one and always holds; every mate in one is
// found (a mate in one is always a check).
TEST(MateSearch, AgreesWithTheMateSuite) {
  int positions = 0, found = 0;
  for (const auto& [fen, n] : mate_suite()) {
    const Position pos = Position::from_fen(fen);
    MateSearch search;
    const MateProof p = search.find(pos, MateLimits{2 * n - 1, 200000});
    ++positions;
    if (n == 1) {
      EXPECT_TRUE(p.found()) << fen;
    }
    if (!p.found()) continue;
    ++found;
    EXPECT_EQ(p.plies, 2 * n - 1) << fen;
    EXPECT_TRUE(proof_holds(pos, p)) << fen;
  }
  EXPECT_GE(positions, 100);
  std::printf("mate suite: %d of %d found by checks alone at their own depth\n", found, positions);
}

}  // namespace
}  // namespace zh
