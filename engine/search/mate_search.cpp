#include "engine/search/mate_search.h"

#include <algorithm>
#include <utility>

namespace zh {

MateProof MateSearch::find(const Position& pos, const MateLimits& limits,
                           std::span<const std::uint64_t> earlier) {
  const int max_plies = std::max(1, limits.max_plies | 1);
  if (int(lists_.size()) < max_plies + 2) {
    lists_.resize(std::size_t(max_plies + 2));
    order_.resize(std::size_t(max_plies + 2));
  }
  nodes_ = 0;
  budget_ = limits.max_nodes;
  aborted_ = false;

  MateProof proof;
  for (int depth = 1; depth <= max_plies && !aborted_; depth += 2) {
    line_.reset(pos.key(), earlier);
    Move first;
    const bool mate = attack(pos, depth, &first);
    proof.uses_history = proof.uses_history || line_.hit_earlier();
    if (mate) {
      proof.move = first;
      proof.plies = depth;
      break;
    }
  }
  proof.nodes = nodes_;
  return proof;
}

// The attacker to move, `depth` plies left (odd): true when some check mates within them.
bool MateSearch::attack(const Position& pos, int depth, Move* first) {
  const std::size_t ply = std::size_t(line_.ply());
  MoveList& checks = lists_[ply];
  pos.legal_checks(checks);
  if (checks.empty()) return false;
  // Each check is played once here: a mate in one ends the search at once, and the others
  // are ordered by how few replies they leave (the likeliest mates first, as proof numbers
  // would order them).
  auto& order = order_[ply];
  order.clear();
  for (const Move m : checks) {
    if (out_of_budget()) {
      aborted_ = true;
      return false;
    }
    Position next = pos;
    next.do_move(m);
    ++nodes_;
    const int replies = next.count_legal_moves();
    if (replies == 0) {
      *first = m;
      return true;
    }
    if (depth >= 3 && !line_.repeats(next.key())) order.emplace_back(replies, m);
  }
  if (depth < 3) return false;
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Move m = order[i].second;
    Position next = pos;
    next.do_move(m);
    ++nodes_;
    line_.push(next.key());
    const bool mated = defend(next, depth - 1);
    line_.pop();
    if (mated) {
      *first = m;
      return true;
    }
    if (aborted_) return false;
  }
  return false;
}

// The defender to move and in check, `depth` plies left (even, >= 2): true when every
// evasion still allows a mate within them.
bool MateSearch::defend(const Position& pos, int depth) {
  const std::size_t ply = std::size_t(line_.ply());
  MoveList& evasions = lists_[ply];
  pos.legal_moves(evasions);
  if (evasions.empty()) return true;
  for (int i = 0; i < evasions.count; ++i) {
    if (out_of_budget()) {
      aborted_ = true;
      return false;
    }
    Position next = pos;
    next.do_move(evasions.moves[i]);
    ++nodes_;
    if (line_.repeats(next.key())) return false;  // a draw: the defender escapes
    line_.push(next.key());
    Move ignored;
    const bool mated = attack(next, depth - 1, &ignored);
    line_.pop();
    if (!mated) return false;
  }
  return true;
}

std::vector<Move> MateSearch::line(const Position& start, int plies, bool attacker,
                                   std::int64_t max_nodes) {
  std::vector<Move> moves;
  Position pos = start;
  while (plies > 0) {
    if (attacker) {
      const MateProof proof = find(pos, MateLimits{plies, max_nodes});
      if (!proof.found()) break;
      moves.push_back(proof.move);
      pos.do_move(proof.move);
      plies = proof.plies - 1;
    } else {
      // The reply that puts the mate furthest off.
      Move best;
      int longest = -1;
      for (const Move reply : pos.legal_moves()) {
        Position next = pos;
        next.do_move(reply);
        const MateProof proof = find(next, MateLimits{plies - 1, max_nodes});
        if (!proof.found()) return moves;  // this reply escapes as far as the budget shows
        if (proof.plies > longest) {
          longest = proof.plies;
          best = reply;
        }
      }
      if (longest < 0) break;  // mated: the line is complete
      moves.push_back(best);
      pos.do_move(best);
      plies = longest;
    }
    attacker = !attacker;
  }
  return moves;
}

}  // namespace zh
