// Search's side of the root proof-number search (root_prover.h): it starts with each search,
// asks for the root moves to check, and hands its proofs to the tree under the tree lock, where
// the solver (solver.h) takes them up.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "engine/search/root_prover.h"
#include "engine/search/search.h"
#include "engine/search/search_lines.h"
#include "engine/search/solver.h"

namespace zh {

void Search::start_prover_locked() {
  if (params_.root_mate_share <= 0 || root_proof_locked() != Proof::kNone) return;
  if (!prover_) prover_ = std::make_unique<RootProver>();
  RootProverParams p;
  p.share = params_.root_mate_share;
  p.max_plies = params_.root_mate_plies;
  RootProverHooks hooks;
  hooks.candidates = [this] { return prover_candidates(); };
  hooks.mate_found = [this](Move m, int plies) { prover_mate_found(m, plies); };
  hooks.move_refuted = [this](Move m, int plies) { prover_move_refuted(m, plies); };
  // The game's positions before the root (the root's own key starts the prover's line).
  std::vector<std::uint64_t> earlier(history_keys_.begin(),
                                     history_keys_.end() - (history_keys_.empty() ? 0 : 1));
  prover_->start(root_pos_, std::move(earlier), p, std::move(hooks), &stop_);
}

// A mate an earlier search of the game proved goes on from here: played at once, before the
// search's limits are first checked (a kept tree can meet a node limit at once), unless its move
// repeats a position of the game (the proof was made on another line: a draw may be claimed
// there), which the prover then judges afresh.
void Search::play_remembered_mate_locked() {
  if (params_.root_mate_share <= 0 || !prover_ || root_proof_locked() != Proof::kNone) return;
  const auto known = prover_->remembered(root_pos_);
  if (!known) return;
  Position next = root_pos_;
  next.do_move(known->move);
  if (std::find(history_keys_.begin(), history_keys_.end(), next.key()) == history_keys_.end())
    enter_root_mate_locked(known->move, known->plies);
}

// The root moves the tree likes most (by visits, then prior), unproven, for the prover to check
// for the opponent's mate.
std::vector<Move> Search::prover_candidates() {
  constexpr int kCandidates = 3;
  std::lock_guard lock(mutex_);
  if (graph_) return search_lines::most_visited_open(groot_, kCandidates);
  return search_lines::most_visited_open(root_, kCandidates);
}

Node* Search::root_child_locked(Move move) {
  const int edge = root_->block()->edge_of(move);
  if (edge < 0) return nullptr;
  Node* prev = nullptr;
  for (Node* c = root_->first_child(); c && c->edge_index() <= edge; c = c->next_sibling()) {
    if (c->edge_index() == edge) return c;
    prev = c;
  }
  Node* child = new Node(std::uint16_t(edge));
  ++tree_nodes_;
  root_->link_child(prev, child);
  return child;
}

// A proven mate for us: its first move becomes a proven win, the solver proves the root, and the
// search ends with that move.
void Search::prover_mate_found(Move move, int plies) {
  std::lock_guard lock(mutex_);
  enter_root_mate_locked(move, plies);
}

void Search::enter_root_mate_locked(Move move, int plies) {
  if (stop_.load(std::memory_order_relaxed) || root_proof_locked() != Proof::kNone) return;
  if (graph_) {
    GraphNode* child = root_child_graph_locked(move);
    if (!child || child->proof() != Proof::kNone) return;
    child->set_proof(Proof::kLoss, plies - 1);
    if (params_.mcts_solver) try_prove(groot_);
  } else {
    Node* child = root_child_locked(move);
    if (!child || child->proof() != Proof::kNone) return;
    child->set_proof(Proof::kLoss, plies - 1);
    if (params_.mcts_solver) try_prove(root_);
  }
  check_limits_locked();
}

// The opponent mates after `move`: a proven loss, never chosen while another move exists.
void Search::prover_move_refuted(Move move, int plies) {
  std::lock_guard lock(mutex_);
  if (stop_.load(std::memory_order_relaxed) || root_proof_locked() != Proof::kNone) return;
  if (graph_) {
    GraphNode* child = root_child_graph_locked(move);
    if (!child || child->proof() != Proof::kNone) return;
    child->set_proof(Proof::kWin, plies);
    if (params_.mcts_solver) try_prove(groot_);
  } else {
    Node* child = root_child_locked(move);
    if (!child || child->proof() != Proof::kNone) return;
    child->set_proof(Proof::kWin, plies);
    if (params_.mcts_solver) try_prove(root_);
  }
  check_limits_locked();
}

}  // namespace zh
