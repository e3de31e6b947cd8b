#include "engine/nn/priors.h"

#include <cassert>
#include <cmath>
#include <limits>

#include "engine/nn/policy_map.h"

namespace zh {

void legal_move_priors(const Position& pos, std::span<const float> logits, float temperature,
                       std::vector<MovePrior>& out) {
  assert(logits.size() >= static_cast<std::size_t>(kPolicySize));
  assert(temperature > 0.0f);
  MoveList moves;
  pos.legal_moves(moves);
  out.clear();
  if (moves.empty()) return;
  out.reserve(moves.size());

  const Color mover = pos.side_to_move();
  const float inv_t = 1.0f / temperature;
  float max_logit = -std::numeric_limits<float>::infinity();
  for (Move m : moves) {
    const int index = policy_index(m, mover);
    assert(index >= 0);  // every legal crazyhouse move has a label
    const float z = logits[index] * inv_t;
    out.push_back({m, z});
    if (z > max_logit) max_logit = z;
  }
  // Subtracting the maximum keeps exp() finite for any logit scale.
  double total = 0.0;
  for (MovePrior& p : out) {
    p.prior = std::exp(p.prior - max_logit);
    total += p.prior;
  }
  if (!(total > 0.0) || !std::isfinite(total)) {
    // Non-finite logits (a broken network): fall back to equal priors rather than NaNs.
    for (MovePrior& p : out) p.prior = 1.0f / static_cast<float>(out.size());
    return;
  }
  const float inv_total = static_cast<float>(1.0 / total);
  for (MovePrior& p : out) p.prior *= inv_total;
}

}  // namespace zh
