#include "engine/search/root_prover.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "engine/search/mate_search.h"
#include "engine/search/proof_number_search.h"
#include "tests/engine/search/mate_suite.h"
#include "tests/engine/search/search_test_util.h"

namespace zh {
namespace {

using test::default_params;
using test::mate_suite;
using test::run_search;

// The defender's reply after `move` in `pos` that leaves no mate within 3 plies (more than the
// leaf searches see), if there is one.
std::optional<Move> stubborn_reply(const Position& pos, Move move) {
  Position next = pos;
  next.do_move(move);
  MateSearch mate;
  for (Move reply : next.legal_moves()) {
    Position after = next;
    after.do_move(reply);
    if (!mate.find(after, MateLimits{3, 0}).found()) return reply;
  }
  return std::nullopt;
}

// A long mate of the suite that checks alone prove, with a defence after its first move that
// leaves the attacker more than a leaf search can see: the position and that defence.
std::optional<std::pair<Position, Move>> long_checks_mate() {
  ProofNumberSearch pns;
  for (const auto& [fen, n] : mate_suite("mate-long.epd")) {
    const Position pos = Position::from_fen(fen);
    const ProofResult r = pns.prove(pos, ProofLimits{400000, 33});
    if (!r.proven()) continue;
    if (const auto reply = stubborn_reply(pos, r.move)) return std::pair{pos, *reply};
  }
  return std::nullopt;
}

// Whether `move` in `pos` leads to a mate within `plies` (the exhaustive short search).
bool mates_within(const Position& pos, Move move, int plies) {
  Position next = pos;
  next.do_move(move);
  if (next.count_legal_moves() == 0) return next.in_check();
  MateSearch mate;
  for (Move reply : next.legal_moves()) {
    Position after = next;
    after.do_move(reply);
    if (!mate.find(after, MateLimits{plies - 2, 0}).found()) return false;
  }
  return true;
}

// What a prover run reported first: the root side's mate, or a candidate's refutation.
struct ProverReport {
  std::optional<ProofStep> mate;
  std::optional<std::pair<Move, int>> refuted;  // the candidate and the mate's plies after it
};

// Runs `prover` on `root` at a whole core, checking `candidates` for the opponent's mate, until
// it reports something, then stops it.
ProverReport run_prover(RootProver& prover, const Position& root, std::vector<Move> candidates) {
  std::mutex m;
  std::condition_variable cv;
  ProverReport report;
  std::atomic<bool> stop{false};
  RootProverHooks hooks;
  hooks.candidates = [candidates] { return candidates; };
  hooks.mate_found = [&](Move move, int plies) {
    std::lock_guard lock(m);
    report.mate = ProofStep{root.key(), move, plies};
    cv.notify_all();
  };
  hooks.move_refuted = [&](Move move, int plies) {
    std::lock_guard lock(m);
    report.refuted = std::pair{move, plies};
    cv.notify_all();
  };
  RootProverParams params;
  params.share = 1.0;
  prover.start(root, {}, params, hooks, &stop);
  {
    std::unique_lock lock(m);
    // A guard against a hang, not a measurement: the proof takes milliseconds.
    cv.wait_for(lock, std::chrono::seconds(120), [&] { return report.mate || report.refuted; });
  }
  stop = true;
  prover.wait();
  std::lock_guard lock(m);
  return report;
}

TEST(RootProver, RemembersEveryDefenceOfTheMateItProvedUntilTheNextGame) {
  const auto found = long_checks_mate();
  ASSERT_TRUE(found) << "no checks-only mate in mate-long.epd with a defence that lasts";
  const Position& root = found->first;

  RootProver prover;
  const std::optional<ProofStep> reported = run_prover(prover, root, {}).mate;
  ASSERT_TRUE(reported);

  // The root's own move, as reported.
  const auto at_root = prover.remembered(root);
  ASSERT_TRUE(at_root);
  EXPECT_EQ(at_root->move, reported->move);
  EXPECT_EQ(at_root->plies, reported->plies);

  // After the mating move and a defence, the next attacker move is known, and it mates in time.
  const auto reply = stubborn_reply(root, reported->move);
  ASSERT_TRUE(reply);
  Position next = root;
  next.do_move(reported->move);
  next.do_move(*reply);
  const auto later = prover.remembered(next);
  ASSERT_TRUE(later);
  EXPECT_LE(later->plies, reported->plies - 2);
  EXPECT_TRUE(next.is_legal(later->move));
  EXPECT_TRUE(mates_within(next, later->move, later->plies)) << next.fen();

  // The same position in another game knows nothing.
  prover.forget();
  EXPECT_FALSE(prover.remembered(root));
  EXPECT_FALSE(prover.remembered(next));
}

TEST(RootProver, RemembersTheMateThatRefutesACandidateForTheSearchAfterIt) {
  // As in a ponder search: the root is the defender's, its candidate the stubborn defence, and
  // the attacker's mate after it refutes it. Once the defence is played, the attacker's search
  // finds the mate remembered.
  const auto found = long_checks_mate();
  ASSERT_TRUE(found) << "no checks-only mate in mate-long.epd with a defence that lasts";
  ProofNumberSearch pns;
  const ProofResult first = pns.prove(found->first, ProofLimits{400000, 33});
  ASSERT_TRUE(first.proven());
  Position root = found->first;
  root.do_move(first.move);
  const Move defence = found->second;

  RootProver prover;
  const auto refuted = run_prover(prover, root, {defence}).refuted;
  ASSERT_TRUE(refuted);
  ASSERT_EQ(refuted->first, defence);
  const int refuted_in = refuted->second;

  Position next = root;
  next.do_move(defence);
  const auto known = prover.remembered(next);
  ASSERT_TRUE(known) << "the mate that refuted the defence was not kept";
  EXPECT_EQ(known->plies, refuted_in);
  EXPECT_TRUE(next.is_legal(known->move));
  EXPECT_TRUE(mates_within(next, known->move, known->plies)) << next.fen();
}

TEST(RootProver, ASearchPlaysOnTheMateAnEarlierSearchProved) {
  // The game's next search after a proven mate and the defender's reply: it has one playout
  // and a prover that may look only one ply deep, so only the remembered proof can prove it.
  const auto found = long_checks_mate();
  ASSERT_TRUE(found);
  const Position& root = found->first;
  for (bool graph : {false, true}) {
    SCOPED_TRACE(graph ? "graph" : "tree");
    Search search(std::make_shared<UniformEvaluator>());
    SearchParams p = default_params();
    p.graph = graph;
    p.root_mate_share = 1.0;
    // The first search's proof is the prover's alone: without the leaf searches and the solver
    // the tree proves nothing and does not end the search (and the prover) early; its mating
    // move is the root child the prover marked. 50 000 playouts leave the prover a thousand
    // times the milliseconds its proof takes.
    p.leaf_mate_plies = 0;
    p.mcts_solver = false;
    Game game(root);
    const auto first = run_search(search, game, p, 50000);
    const auto proven = std::find_if(first.children.begin(), first.children.end(),
                                     [](const RootChild& c) { return c.proof == Proof::kLoss; });
    ASSERT_NE(proven, first.children.end());
    const Move mating = proven->move;
    const auto reply = stubborn_reply(root, mating);
    ASSERT_TRUE(reply);
    game.play(mating);
    game.play(*reply);

    p.root_mate_plies = 1;
    p.leaf_mate_plies = default_params().leaf_mate_plies;
    p.mcts_solver = true;
    const auto next = run_search(search, game, p, 1);
    EXPECT_EQ(next.reason, StopReason::kSolved);
    EXPECT_EQ(next.root_proof, Proof::kWin);
    EXPECT_LE(next.root_proof_plies, proven->proof_plies - 1);
    ASSERT_GE(next.best, 0);
    const Move played = next.children[std::size_t(next.best)].move;
    EXPECT_TRUE(mates_within(game.position(), played, next.root_proof_plies));

    // A new game forgets it: the same position is not proven by one playout (the stubborn
    // reply leaves no mate that the search's leaf mate search, 3 plies, can see).
    search.clear();
    const auto fresh = run_search(search, game, p, 1);
    EXPECT_EQ(fresh.root_proof, Proof::kNone);
  }
}

}  // namespace
}  // namespace zh
