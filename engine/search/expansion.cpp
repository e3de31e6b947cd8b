#include "engine/search/expansion.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "engine/chess/check_detector.h"

namespace zh {

void enhance_checks(std::vector<float>& priors, const std::vector<std::uint8_t>& is_check,
                    double threshold, double factor) {
  if (priors.empty()) return;
  const float max_prior = *std::max_element(priors.begin(), priors.end());
  const float bonus = float(factor) * max_prior;
  bool changed = false;
  for (std::size_t i = 0; i < priors.size(); ++i) {
    if (is_check[i] && priors[i] < threshold) {
      priors[i] += bonus;
      changed = true;
    }
  }
  if (!changed) return;
  const float sum = std::accumulate(priors.begin(), priors.end(), 0.0f);
  if (sum > 0)
    for (float& p : priors) p /= sum;
}

EvalBlock* make_eval_block(const Position& pos, const Evaluation& eval,
                           const ExpansionOptions& options) {
  const int n = int(eval.priors.size());
  EvalBlock* block = EvalBlock::create(n);
  block->value = std::clamp(eval.value, -1.0f, 1.0f);
  if (n == 0) return block;

  // Scratch buffers reused by each search thread: expansion runs once per network evaluation.
  thread_local std::vector<float> priors;
  thread_local std::vector<std::uint8_t> is_check;
  thread_local std::vector<std::pair<float, int>> order;
  priors.resize(n);
  for (int i = 0; i < n; ++i) priors[i] = eval.priors[i].prior;
  if (options.check_enhancement) {
    const CheckDetector detector(pos);
    is_check.resize(std::size_t(n));
    for (int i = 0; i < n; ++i) is_check[i] = detector.gives_check(eval.priors[i].move);
    enhance_checks(priors, is_check, options.check_threshold, options.check_factor);
  }

  // Highest prior first; ties keep the evaluator's order so the search is deterministic.
  order.resize(n);
  for (int i = 0; i < n; ++i) order[i] = {priors[i], i};
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  Edge* edges = block->edges();
  for (int i = 0; i < n; ++i) {
    const int from = order[i].second;
    edges[i].move = eval.priors[from].move.raw();
    edges[i].prior = float_to_half(order[i].first);
  }
  return block;
}

void attach_mate(EvalBlock& block, const MateProof& proof) {
  for (int i = 0; i < block.num_edges; ++i) {
    if (block.edges()[i].move == proof.move.raw()) {
      block.mate_edge = std::int16_t(i);
      block.mate_plies = std::uint8_t(proof.plies);
      return;
    }
  }
}

EvalBlock* make_proven_block(const Position& pos, const MateProof& proof) {
  MoveList legal;
  pos.legal_moves(legal);
  EvalBlock* block = EvalBlock::create(legal.count);
  block->value = 1.0f;
  block->evaluated = false;
  const std::uint16_t prior = float_to_half(1.0f / float(legal.count));
  Edge* edges = block->edges();
  int next = 1;
  for (const Move m : legal) {
    Edge& e = m == proof.move ? edges[0] : edges[next++];
    e.move = m.raw();
    e.prior = prior;
  }
  block->mate_edge = 0;
  block->mate_plies = std::uint8_t(proof.plies);
  return block;
}

bool block_matches_position(const EvalBlock& block, const Position& pos) {
  MoveList legal;
  pos.legal_moves(legal);
  if (legal.count != block.num_edges) return false;
  std::vector<std::uint16_t> want(std::size_t(legal.count)), have(std::size_t(legal.count));
  for (int i = 0; i < legal.count; ++i) {
    want[std::size_t(i)] = legal.moves[i].raw();
    have[std::size_t(i)] = block.edges()[i].move;
  }
  std::sort(want.begin(), want.end());
  std::sort(have.begin(), have.end());
  return want == have;
}

}  // namespace zh
