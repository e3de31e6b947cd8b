#pragma once
// The final move choice (eqs. 5-7 of the paper) over the root's children, proof-aware, with
// optional temperature sampling. Pure: tested with hand-made child statistics.

#include <cstdint>
#include <random>
#include <vector>

#include "engine/chess/move.h"
#include "engine/search/node.h"

namespace zh {

struct RootChild {
  Move move;
  float prior = 0;
  std::uint32_t visits = 0;
  float q = -1;                // mean value for the root's side to move
  Proof proof = Proof::kNone;  // from the child's side to move: kLoss means the move wins
  int proof_plies = 0;
};

struct MoveChoiceParams {
  double q_factor = 0.7;
  double q_thresh_init = 0.5;
  double q_thresh_max = 0.9;
  double q_thresh_base = 1965;
};

// Eqs. (5)(7): pi = (1 - q_factor) * N/sum N + q_factor * Q', Q' = (Q + 1)/2 and Q' = 0 for
// children with N < Qthresh(s) * max N. `parent_visits` is N(s). Entries of never-visited
// children are 0.
std::vector<double> final_policy(const std::vector<RootChild>& children,
                                 std::uint32_t parent_visits, const MoveChoiceParams& p);

// The index of the move to play: a proven win first (fastest mate), never a proven loss while
// something else exists (the slowest loss when everything loses), otherwise the argmax of the
// final policy, or a sample of pi^(1/temperature) when `rng` is given. -1 if no children.
int choose_move(const std::vector<RootChild>& children, std::uint32_t parent_visits,
                const MoveChoiceParams& p, double temperature = 0, std::mt19937_64* rng = nullptr);

// How contested the choice of children[best] is: the largest share of its visits that a visited
// move with a better Q has (0: none; 0.5: a move with half its visits looks better). The time
// manager searches on while it is high (contested_share), since more search may change the move.
double challenger_share(const std::vector<RootChild>& children, int best);

// How many more visits the closest rival of children[best] needs before more search could change
// the move played. Below the Q threshold of eq. (7) a child counts by its visits alone, so while
// the chosen move is the most visited and every other child is under the threshold, only a
// child that reaches it can be chosen. 0: the choice can change with any playout (another child
// is past the threshold, or the chosen move is not the most visited). Children proven lost are
// never played and do not count; with no rival at all the result is kNoRival. The threshold is
// taken at today's visits: it only grows with more search, so the figure never overstates.
inline constexpr std::uint32_t kNoRival = 0xffffffffu;
std::uint32_t visits_to_change(const std::vector<RootChild>& children, int best,
                               std::uint32_t parent_visits, const MoveChoiceParams& p);

}  // namespace zh
