#pragma once
// The proof-number search at the root, in a thread of its own beside the tree's workers
// (design 2d). While a search runs it tries, with budgets that double round by round:
//  - to prove a mate for the side to move at the root (a long one: the leaf searches see only
//    a few plies), and
//  - for each of the tree's favourite moves, to prove the opponent's mate after it.
// What it proves it hands to the search through two callbacks, which enter it into the tree as
// solver proofs: a proven mate is played, a move that allows one is never chosen.
//
// A proven mate is remembered for the rest of the game (until forget()): the attacker's move in
// every position of its proof, so that the next searches play it on at once, however little
// time they have. Proving it again at each move could fail within a search's share of a core,
// and a mate found would be lost a few moves later.
//
// Its cost is bounded by a share of one core: after each piece of work it sleeps so that its
// busy time stays that share of the wall time. It stops within 256 positions of the search's
// stop flag and never holds the tree lock while it works.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include "engine/chess/position.h"
#include "engine/search/proof_number_search.h"

namespace zh {

struct RootProverParams {
  double share = 0.1;  // of one core, in (0, 1]
  int max_plies = 33;
  std::int64_t first_budget = 2000;
  std::int64_t max_budget = 4000000;  // positions per proof attempt
};

struct RootProverHooks {
  // The moves the tree likes most, best first, without those already proven.
  std::function<std::vector<Move>()> candidates;
  // A mate for the root's side to move in `plies`, starting with `move`.
  std::function<void(Move move, int plies)> mate_found;
  // After `move`, the opponent mates in `plies` (counted from the position after the move).
  std::function<void(Move move, int plies)> move_refuted;
};

class RootProver {
 public:
  RootProver();
  ~RootProver();
  RootProver(const RootProver&) = delete;
  RootProver& operator=(const RootProver&) = delete;

  // Starts proving for `root` (reached after the positions `earlier`) until `stop` is set.
  // The previous job must be over (wait()).
  void start(const Position& root, std::vector<std::uint64_t> earlier,
             const RootProverParams& params, RootProverHooks hooks, const std::atomic<bool>* stop);
  // Blocks until the current job (if any) returned; the caller has set the stop flag.
  void wait();
  // The mate a proof of this game found from `root` (its move there and its length), if any.
  std::optional<ProofStep> remembered(const Position& root) const;
  // A new game: the proofs remembered are dropped.
  void forget();
  // Positions played by the last job: for tests and reports.
  std::int64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }

 private:
  void loop();
  void run_job();
  ProofResult shortest(ProofResult proof, std::int64_t budget);
  bool stopped() const { return stop_->load(std::memory_order_relaxed); }
  void pace(double busy_seconds);
  void remember(const std::vector<ProofStep>& steps);

  ProofNumberSearch pns_;
  Position root_;
  std::vector<std::uint64_t> earlier_;
  RootProverParams params_;
  RootProverHooks hooks_;
  const std::atomic<bool>* stop_ = nullptr;
  std::atomic<std::int64_t> nodes_{0};

  mutable std::mutex memory_mutex_;  // remembered_ is read by the search's thread
  std::unordered_map<std::uint64_t, ProofStep> remembered_;

  std::mutex mutex_;
  std::condition_variable cv_;
  bool has_job_ = false;
  bool busy_ = false;
  bool quit_ = false;
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace zh
