#include "engine/nn/priors.h"

#include <cassert>
#include <cmath>
#include <limits>

#include "engine/nn/policy_map.h"

namespace zh {

void legal_moves_and_slots(const Position& pos, std::vector<MovePrior>& out,
                           std::vector<std::int64_t>& slots) {
  MoveList moves;
  pos.legal_moves(moves);
  out.clear();
  slots.clear();
  out.reserve(moves.size());
  slots.reserve(moves.size());
  const Color mover = pos.side_to_move();
  for (Move m : moves) {
    const int index = policy_index(m, mover);
    assert(index >= 0);  // every legal crazyhouse move has a label
    out.push_back({m, 0.0f});
    slots.push_back(index);
  }
}

void softmax_priors(float temperature, std::vector<MovePrior>& out) {
  assert(temperature > 0.0f);
  if (out.empty()) return;
  const float inv_t = 1.0f / temperature;
  float max_logit = -std::numeric_limits<float>::infinity();
  for (MovePrior& p : out) {
    p.prior *= inv_t;
    if (p.prior > max_logit) max_logit = p.prior;
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

void legal_move_priors(const Position& pos, std::span<const float> logits, float temperature,
                       std::vector<MovePrior>& out) {
  assert(logits.size() >= static_cast<std::size_t>(kPolicySize));
  thread_local std::vector<std::int64_t> slots;
  legal_moves_and_slots(pos, out, slots);
  for (std::size_t j = 0; j < out.size(); ++j) out[j].prior = logits[slots[j]];
  softmax_priors(temperature, out);
}

}  // namespace zh
