#include "engine/search/move_choice.h"

#include <algorithm>
#include <cmath>

#include "engine/search/formulas.h"

namespace zh {

std::vector<double> final_policy(const std::vector<RootChild>& children,
                                 std::uint32_t parent_visits, const MoveChoiceParams& p) {
  std::vector<double> pi(children.size(), 0.0);
  // A move proven to lose is out of the choice: its visits (frozen since the proof, and often the
  // most, as the prover tests the most visited moves) neither raise eq. (5)'s threshold for the
  // others nor share in eq. (7)'s visit term. Its pi stays 0.
  const auto open = [](const RootChild& c) { return c.proof != Proof::kWin; };
  double sum_n = 0;
  std::uint32_t max_n = 0;
  for (const auto& c : children) {
    if (!open(c)) continue;
    sum_n += c.visits;
    max_n = std::max(max_n, c.visits);
  }
  if (sum_n <= 0) return pi;
  const double thresh =
      formulas::q_threshold(parent_visits, p.q_thresh_init, p.q_thresh_max, p.q_thresh_base) *
      max_n;
  for (std::size_t i = 0; i < children.size(); ++i) {
    const auto& c = children[i];
    if (c.visits == 0 || !open(c)) continue;
    const double q01 = c.visits < thresh ? 0.0 : (double(c.q) + 1.0) / 2.0;
    pi[i] = (1.0 - p.q_factor) * c.visits / sum_n + p.q_factor * q01;
  }
  return pi;
}

int choose_move(const std::vector<RootChild>& children, std::uint32_t parent_visits,
                const MoveChoiceParams& p, double temperature, std::mt19937_64* rng) {
  if (children.empty()) return -1;
  // Proofs decide first.
  int win = -1;
  for (int i = 0; i < int(children.size()); ++i)
    if (children[i].proof == Proof::kLoss &&
        (win < 0 || children[i].proof_plies < children[win].proof_plies))
      win = i;
  if (win >= 0) return win;
  std::vector<double> pi = final_policy(children, parent_visits, p);
  bool any_open = false;
  for (std::size_t i = 0; i < children.size(); ++i) {
    if (children[i].proof == Proof::kWin)
      pi[i] = -1;  // this move loses by force
    else
      any_open = true;
  }
  if (!any_open) {  // everything loses: hold out longest
    int best = 0;
    for (int i = 1; i < int(children.size()); ++i)
      if (children[i].proof_plies > children[best].proof_plies) best = i;
    return best;
  }
  // Nothing visited yet: the best prior among the moves not proven lost.
  if (std::all_of(pi.begin(), pi.end(), [](double v) { return v <= 0; })) {
    int best = -1;
    for (int i = 0; i < int(children.size()); ++i)
      if (children[i].proof != Proof::kWin &&
          (best < 0 || children[i].prior > children[best].prior))
        best = i;
    return best;
  }
  if (rng && temperature > 0) {
    std::vector<double> weights(pi.size());
    const double max_pi = *std::max_element(pi.begin(), pi.end());
    for (std::size_t i = 0; i < pi.size(); ++i)
      weights[i] = pi[i] > 0 ? std::pow(pi[i] / max_pi, 1.0 / temperature) : 0.0;
    std::discrete_distribution<int> dist(weights.begin(), weights.end());
    return dist(*rng);
  }
  return int(std::max_element(pi.begin(), pi.end()) - pi.begin());
}

double challenger_share(const std::vector<RootChild>& children, int best) {
  if (best < 0 || best >= int(children.size()) || children[std::size_t(best)].visits == 0) return 0;
  const RootChild& chosen = children[std::size_t(best)];
  double share = 0;
  for (const RootChild& c : children)
    if (c.visits > 0 && c.q > chosen.q)
      share = std::max(share, double(c.visits) / double(chosen.visits));
  return share;
}

std::uint32_t visits_to_change(const std::vector<RootChild>& children, int best,
                               std::uint32_t parent_visits, const MoveChoiceParams& p) {
  if (best < 0 || best >= int(children.size())) return 0;
  const std::uint32_t chosen = children[std::size_t(best)].visits;
  const double thresh =
      formulas::q_threshold(parent_visits, p.q_thresh_init, p.q_thresh_max, p.q_thresh_base) *
      chosen;
  std::uint32_t gap = kNoRival;
  for (int i = 0; i < int(children.size()); ++i) {
    const RootChild& c = children[std::size_t(i)];
    if (i == best || c.proof == Proof::kWin) continue;
    if (c.visits >= chosen || double(c.visits) >= thresh) return 0;
    gap = std::min(gap, std::uint32_t(std::ceil(thresh - double(c.visits))));
  }
  return gap;
}

}  // namespace zh
