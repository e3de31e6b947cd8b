#include "engine/search/proof_number_search.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/search/mate_search.h"
#include "tests/engine/search/mate_suite.h"

namespace zh {
namespace {

using test::mate_suite;

TEST(ProofNumberSearch, ProvesWhatTheShortSearchProvesAndOnlyRealMates) {
  // Every proof is checked by the exhaustive short search at the proof's own length, and every
  // mate the short search finds within 5 plies is also proven.
  int proven = 0, short_found = 0;
  const auto suite = mate_suite();
  ASSERT_GE(suite.size(), 100u);
  ProofNumberSearch pns;
  MateSearch mate;
  for (const auto& [fen, n] : suite) {
    const Position pos = Position::from_fen(fen);
    const ProofResult r = pns.prove(pos, ProofLimits{200000, 15});
    const MateProof s = mate.find(pos, MateLimits{5, 0});
    if (s.found()) {
      ++short_found;
      EXPECT_TRUE(r.proven()) << fen;
      // Proving again with fewer plies until it fails finds the shortest mate, as the
      // exhaustive short search does.
      ProofResult shortest = r;
      for (ProofResult again = r; again.proven() && again.plies > 1;) {
        again = pns.prove(pos, ProofLimits{200000, again.plies - 2});
        if (again.proven()) shortest = again;
      }
      EXPECT_EQ(shortest.plies, s.plies) << fen;
    }
    if (!r.proven()) continue;
    ++proven;
    EXPECT_GE(r.plies, 2 * n - 1) << fen;  // never shorter than Fairy-Stockfish's mate
    EXPECT_TRUE(pos.is_legal(r.move) && pos.gives_check(r.move)) << fen;
    Position next = pos;
    next.do_move(r.move);
    // After the first move every reply loses within the plies left.
    for (Move reply : next.legal_moves()) {
      Position after = next;
      after.do_move(reply);
      EXPECT_TRUE(r.plies > 1 && mate.find(after, MateLimits{r.plies - 2, 0}).found()) << fen;
    }
  }
  std::printf("df-pn proved %d of %zu (the 5-ply search: %d)\n", proven, suite.size(), short_found);
}

TEST(ProofNumberSearch, DisprovesARefutedMate) {
  ProofNumberSearch pns;
  const ProofResult r =
      pns.prove(Position::from_fen("r5k1/5ppp/8/8/8/8/8/4K3[R] w - - 0 1"), ProofLimits{100000, 9});
  EXPECT_FALSE(r.proven());
  EXPECT_TRUE(r.disproven);
}

TEST(ProofNumberSearch, StopsWhenAsked) {
  const std::atomic<bool> stop{true};
  ProofNumberSearch pns;
  const Position pos =
      Position::from_fen("r1bq1rk1/ppp2ppp/2n5/3np3/2B5/2N2N2/PPPP1PPP/R1BQ1RK1[BNPbp] w - - 0 8");
  const ProofResult r = pns.prove(pos, ProofLimits{0, 33}, {}, &stop);
  EXPECT_FALSE(r.proven());
  EXPECT_FALSE(r.disproven);
  EXPECT_LE(r.nodes, 1000);  // the flag is read every 256 positions
}

}  // namespace
}  // namespace zh
