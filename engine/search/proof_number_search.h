#pragma once
// Depth-first proof-number search (df-pn) for long mates in crazyhouse: the attacker plays
// only checks, the defender every evasion, as in the short mate search (mate_search.h), but
// guided by proof and disproof numbers and a transposition table keyed by the position with
// both pockets, so it proves mates of 20 and more plies within a node budget.
//
// Soundness: a proof is only ever built from positions without legal moves, so a proven mate
// is a mate. A repetition (of the line or of `earlier`) and the ply cap count as disproofs:
// they can hide a mate, never invent one. Disproofs found under the ply cap are stored with
// the plies that were left, and trusted only where no more are.
//
// One object per thread. Its table keeps what it learnt between prove() calls until clear(),
// keyed by the position and by who attacks ("can White mate?" and "can Black mate?" share
// positions), so that proving again with a larger budget goes on where the last call stopped.
// A caller clears it for another root: a disproof may rest on a repetition of the line it was
// found on (as within one call, it can hide a mate there, never invent one). A proof is a fact
// of the position (it ends only in positions without legal moves): proof_moves() reads the one
// just found out of the table, so that a caller can keep it (root_prover.h keeps it for the game).

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/chess/position.h"
#include "engine/search/line_keys.h"

namespace zh {

struct ProofLimits {
  std::int64_t max_nodes = 100000;  // positions played
  int max_plies = 33;               // the longest line searched
};

// One attacker's move of a proof: in the position `key`, `move` mates in `plies` at most.
struct ProofStep {
  std::uint64_t key = 0;
  Move move;
  int plies = 0;
};

struct ProofResult {
  Move move;      // the first move of the proven mate; null if none was proven
  int plies = 0;  // length of the proven mate (the defender's longest resistance within the
                  // proof found; not always the shortest: prove again with fewer max_plies)
  bool disproven = false;  // no checks-only mate within max_plies (repetitions aside)
  std::int64_t nodes = 0;
  bool proven() const { return plies > 0; }
};

class ProofNumberSearch {
 public:
  // `table_entries` is rounded down to a power of two (24 bytes each).
  explicit ProofNumberSearch(std::size_t table_entries = std::size_t(1) << 18);

  void clear();
  // Tries to prove a mate for the side to move. Returns early once `stop` is set.
  ProofResult prove(const Position& pos, const ProofLimits& limits,
                    std::span<const std::uint64_t> earlier = {},
                    const std::atomic<bool>* stop = nullptr);
  // After a prove() of `pos` that returned `proof` (proven): the attacker's move in every
  // attacker position of that proof, against every defence, as far as the table still holds it
  // (an evicted position ends its line), at most `max_steps` of them, appended to `out`.
  void proof_moves(const Position& pos, const ProofResult& proof, std::size_t max_steps,
                   std::vector<ProofStep>& out) const;

 private:
  struct Entry {
    std::uint64_t key = 0;
    std::uint32_t pn = 1;          // proof number of the attacker's mate from this position
    std::uint32_t dn = 1;          // disproof number
    std::uint16_t plies_left = 0;  // for a disproof: the plies it was searched with
    std::uint16_t mate_plies = 0;  // for a proof: its length
  };
  struct Child {
    Move move;
    std::uint64_t key;
    std::uint32_t pn, dn;
    std::uint16_t mate_plies;
  };

  void search(const Position& pos, bool attacker, int plies_left, std::uint32_t th_pn,
              std::uint32_t th_dn);
  Entry& slot(std::uint64_t key);
  const Entry* proven(std::uint64_t key, int plies_left) const;
  Entry lookup(std::uint64_t key, int plies_left, const Position* pos, bool attacker);
  void store(std::uint64_t key, const Entry& e);
  bool should_stop();

  std::vector<Entry> table_;
  std::uint64_t salt_ = 0;  // who attacks in the current prove(), mixed into the table index
  LineKeys line_;
  const std::atomic<bool>* stop_ = nullptr;
  std::int64_t nodes_ = 0;
  std::int64_t budget_ = 0;
  std::int64_t next_stop_check_ = 0;  // the stop flag is read every 256 positions
  bool stopped_ = false;
};

}  // namespace zh
