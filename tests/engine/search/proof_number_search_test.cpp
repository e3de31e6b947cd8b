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
    pns.clear();  // another root
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

// The root prover's schedule (root_prover.h), up to budgets of 256 000 positions: budgets
// doubling from 2 000 until a proof, then proving again with two plies fewer until that fails.
// The positions it played to its proof (0: none). With `fresh` every call starts from an empty
// table, as before the table was kept between calls.
std::int64_t positions_to_proof(ProofNumberSearch& pns, const Position& pos, bool fresh) {
  std::int64_t played = 0;
  pns.clear();
  ProofResult r;
  for (std::int64_t budget = 2000; budget <= 256000 && !r.proven() && !r.disproven; budget *= 2) {
    if (fresh) pns.clear();
    r = pns.prove(pos, ProofLimits{budget, 33});
    played += r.nodes;
  }
  if (!r.proven()) return 0;
  for (ProofResult shorter = r; shorter.proven() && shorter.plies > 1;) {
    if (fresh) pns.clear();
    shorter = pns.prove(pos, ProofLimits{256000, shorter.plies - 2});
    played += shorter.nodes;
  }
  return played;
}

TEST(ProofNumberSearch, ProvingAgainGoesOnFromWhatTheTableHolds) {
  ProofNumberSearch pns;
  const auto suite = mate_suite("mate-long.epd");
  ASSERT_GE(suite.size(), 40u);
  // The same root again after a proof: the table answers at once, with the same mate.
  const Position pos = Position::from_fen(suite[0].first);
  const ProofResult first = pns.prove(pos, ProofLimits{4000000, 33});
  ASSERT_TRUE(first.proven());
  const ProofResult again = pns.prove(pos, ProofLimits{4000000, 33});
  EXPECT_TRUE(again.proven());
  EXPECT_EQ(again.plies, first.plies);
  EXPECT_LT(again.nodes * 20, first.nodes);
  // The prover's schedule over the suite's mates: the same mates proven, with fewer positions
  // in all than from empty tables.
  std::int64_t kept = 0, fresh = 0;
  int proven = 0;
  for (const auto& [fen, n] : suite) {
    const Position p = Position::from_fen(fen);
    const std::int64_t k = positions_to_proof(pns, p, false);
    const std::int64_t f = positions_to_proof(pns, p, true);
    EXPECT_EQ(k > 0, f > 0) << fen;  // the same mates proven
    if (k == 0 || f == 0) continue;
    ++proven;
    kept += k;
    fresh += f;
  }
  std::printf(
      "the root prover's schedule on the %d mates of mate-long.epd it proves within "
      "256 000 positions a call: %lld positions with its table kept, %lld from empty "
      "tables (%.2fx)\n",
      proven, static_cast<long long>(kept), static_cast<long long>(fresh),
      double(fresh) / double(kept));
  EXPECT_LT(kept, fresh);
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
