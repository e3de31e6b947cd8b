#include "engine/search/proof_number_search.h"

#include <algorithm>
#include <bit>
#include <unordered_set>

namespace zh {

namespace {

constexpr std::uint32_t kInfinity = 0x3fffffff;
constexpr std::uint16_t kAnyPlies = 0xffff;  // a disproof that no ply cap caused

std::uint32_t add(std::uint32_t a, std::uint32_t b) { return std::min(kInfinity, a + b); }

// Mixed into the table index when Black attacks: one position, two questions, two slots.
constexpr std::uint64_t kBlackAttacks = 0x9e3779b97f4a7c15ULL;

}  // namespace

ProofNumberSearch::ProofNumberSearch(std::size_t table_entries)
    : table_(std::bit_floor(std::max<std::size_t>(table_entries, 1024))) {}

bool ProofNumberSearch::should_stop() {
  if (stopped_) return true;
  if (budget_ > 0 && nodes_ >= budget_) stopped_ = true;
  if (stop_ && nodes_ >= next_stop_check_) {
    next_stop_check_ = nodes_ + 256;
    if (stop_->load(std::memory_order_relaxed)) stopped_ = true;
  }
  return stopped_;
}

void ProofNumberSearch::clear() { std::fill(table_.begin(), table_.end(), Entry{}); }

ProofNumberSearch::Entry& ProofNumberSearch::slot(std::uint64_t key) {
  return table_[(key ^ salt_) & (table_.size() - 1)];
}

// The table's proof of `key` if it holds one that fits in `plies_left`.
const ProofNumberSearch::Entry* ProofNumberSearch::proven(std::uint64_t key, int plies_left) const {
  const Entry& e = table_[(key ^ salt_) & (table_.size() - 1)];
  return e.key == key && e.pn == 0 && e.mate_plies <= plies_left ? &e : nullptr;
}

ProofNumberSearch::Entry ProofNumberSearch::lookup(std::uint64_t key, int plies_left,
                                                   const Position* pos, bool attacker) {
  const Entry& e = slot(key);
  // A proof counts only where it fits in the plies left, a disproof only where it was made
  // with as many; numbers in between are estimates, good anywhere.
  const bool fits = e.pn == 0   ? e.mate_plies <= plies_left
                    : e.dn == 0 ? e.plies_left >= plies_left
                                : true;
  if (e.key == key && fits) return e;
  Entry fresh;
  fresh.key = key;
  // The defender's replies: many are hard to prove, none at all is mate.
  if (!attacker && pos) {
    const int replies = pos->count_legal_moves();
    fresh.pn = replies == 0 ? 0 : std::uint32_t(replies);
    fresh.dn = replies == 0 ? kInfinity : 1;
  }
  return fresh;
}

void ProofNumberSearch::store(std::uint64_t key, const Entry& e) {
  Entry& s = slot(key);
  s = e;
  s.key = key;
}

ProofResult ProofNumberSearch::prove(const Position& pos, const ProofLimits& limits,
                                     std::span<const std::uint64_t> earlier,
                                     const std::atomic<bool>* stop) {
  salt_ = pos.side_to_move() == kBlack ? kBlackAttacks : 0;
  stop_ = stop;
  nodes_ = 0;
  budget_ = limits.max_nodes;
  stopped_ = false;
  next_stop_check_ = 0;
  line_.reset(pos.key(), earlier);
  const int plies = std::max(1, limits.max_plies | 1);
  search(pos, true, plies, kInfinity - 1, kInfinity - 1);

  ProofResult result;
  result.nodes = nodes_;
  const Entry root = lookup(pos.key(), plies, nullptr, true);
  result.disproven = root.dn == 0;
  if (root.pn != 0) return result;
  // The proof's first move: the proven check with the shortest proof found.
  MoveList checks;
  pos.legal_checks(checks);
  int best = -1;
  for (const Move m : checks) {
    Position next = pos;
    next.do_move(m);
    const Entry e = lookup(next.key(), plies - 1, &next, false);
    if (e.pn == 0 && (best < 0 || e.mate_plies + 1 < best)) {
      best = e.mate_plies + 1;
      result.move = m;
    }
  }
  if (best > 0) result.plies = best;
  return result;
}

// Expands `pos` and works on it until its proof or disproof number reaches its threshold, it
// is solved, or the budget ends. Its numbers are in the table when it returns.
void ProofNumberSearch::search(const Position& pos, bool attacker, int plies_left,
                               std::uint32_t th_pn, std::uint32_t th_dn) {
  const std::uint64_t key = pos.key();
  MoveList moves;
  if (attacker)
    pos.legal_checks(moves);
  else
    pos.legal_moves(moves);
  Entry self;
  self.key = key;
  if (moves.empty()) {
    // No check to give: no mate from here. No evasion: mated.
    self.pn = attacker ? kInfinity : 0;
    self.dn = attacker ? 0 : kInfinity;
    self.plies_left = kAnyPlies;
    store(key, self);
    return;
  }
  if (plies_left == 0) {
    self.pn = kInfinity;
    self.dn = 0;
    self.plies_left = 0;
    store(key, self);
    return;
  }

  std::vector<Child> children;
  children.reserve(std::size_t(moves.count));
  std::vector<Position> positions;
  positions.reserve(std::size_t(moves.count));
  bool capped = false;  // a child's disproof was limited by plies or by a repetition
  for (const Move m : moves) {
    Position next = pos;
    next.do_move(m);
    ++nodes_;
    Child c{m, next.key(), 1, 1, 0};
    if (line_.repeats(c.key)) {
      c.pn = kInfinity;  // a draw: the attacker gets nothing from this line
      c.dn = 0;
      capped = true;
    } else {
      const Entry e = lookup(c.key, plies_left - 1, &next, !attacker);
      c.pn = e.pn;
      c.dn = e.dn;
      c.mate_plies = e.mate_plies;
      if (e.dn == 0 && e.plies_left != kAnyPlies) capped = true;
    }
    children.push_back(c);
    positions.push_back(next);
  }

  for (;;) {
    std::uint32_t pn = attacker ? kInfinity : 0;
    std::uint32_t dn = attacker ? 0 : kInfinity;
    int best = -1;
    std::uint32_t second = kInfinity;
    for (int i = 0; i < int(children.size()); ++i) {
      const Child& c = children[std::size_t(i)];
      // The number that the node's side minimises: pn for the attacker, dn for the defender.
      const std::uint32_t own = attacker ? c.pn : c.dn;
      if (attacker) {
        pn = std::min(pn, c.pn);
        dn = add(dn, c.dn);
      } else {
        pn = add(pn, c.pn);
        dn = std::min(dn, c.dn);
      }
      const std::uint32_t best_own =
          best < 0 ? kInfinity
                   : (attacker ? children[std::size_t(best)].pn : children[std::size_t(best)].dn);
      if (best < 0 || own < best_own) {
        second = best_own;
        best = i;
      } else if (own < second) {
        second = own;
      }
    }
    self.pn = pn;
    self.dn = dn;
    if (pn == 0) {
      int length = attacker ? kInfinity : 0;
      for (const Child& c : children) {
        if (attacker && c.pn == 0) length = std::min<int>(length, c.mate_plies);
        if (!attacker) length = std::max<int>(length, c.mate_plies);
      }
      self.mate_plies = std::uint16_t(length + 1);
    }
    if (dn == 0) self.plies_left = capped ? std::uint16_t(plies_left) : kAnyPlies;
    store(key, self);
    if (pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || should_stop()) return;

    Child& c = children[std::size_t(best)];
    std::uint32_t child_th_pn, child_th_dn;
    if (attacker) {
      child_th_pn = std::min(th_pn, add(second, 1));
      child_th_dn = add(th_dn - dn, c.dn);
    } else {
      child_th_dn = std::min(th_dn, add(second, 1));
      child_th_pn = add(th_pn - pn, c.pn);
    }
    line_.push(c.key);
    search(positions[std::size_t(best)], !attacker, plies_left - 1, child_th_pn, child_th_dn);
    line_.pop();
    const Entry& e = slot(c.key);
    if (e.key == c.key) {
      c.pn = e.pn;
      c.dn = e.dn;
      c.mate_plies = e.mate_plies;
      if (e.dn == 0 && e.plies_left != kAnyPlies) capped = true;
    } else {
      // Evicted by another position: keep the child from being chosen forever unsolved.
      c.pn = add(c.pn, 1);
      c.dn = add(c.dn, 1);
    }
  }
}

// Walks the proof: at an attacker position the proven check with the shortest mate, at a
// defender position every legal reply. A position met again (a transposition) is walked once.
void ProofNumberSearch::proof_moves(const Position& pos, const ProofResult& proof,
                                    std::size_t max_steps, std::vector<ProofStep>& out) const {
  if (!proof.proven()) return;
  std::unordered_set<std::uint64_t> walked;
  std::size_t steps = 0;
  auto attack = [&](auto& self, const Position& at, int plies_left) -> void {
    if (steps >= max_steps || !walked.insert(at.key()).second) return;
    MoveList checks;
    at.legal_checks(checks);
    ProofStep best;
    Position best_next;
    for (const Move m : checks) {
      Position next = at;
      next.do_move(m);
      int plies = 1;  // a check without a reply is mate
      if (next.count_legal_moves() > 0) {
        const Entry* e = proven(next.key(), plies_left - 1);
        plies = e ? e->mate_plies + 1 : 0;
      }
      if (plies > 0 && (best.plies == 0 || plies < best.plies)) {
        best = ProofStep{at.key(), m, plies};
        best_next = next;
      }
    }
    if (best.plies == 0) return;  // the table no longer holds this part of the proof
    out.push_back(best);
    ++steps;
    if (best.plies == 1) return;
    for (const Move reply : best_next.legal_moves()) {
      Position after = best_next;
      after.do_move(reply);
      self(self, after, best.plies - 2);
    }
  };
  attack(attack, pos, proof.plies);
}

}  // namespace zh
