// The search itself: selection (PUCT with virtual loss), expansion with the leaf mate search,
// backup, and the root's preparation (its evaluation, Dirichlet noise). The worker pool that
// drives it is in search_workers.cpp, the tree's memory and reuse in search_tree.cpp, the root
// prover's hooks in search_prover.cpp, the reports in search_snapshot.cpp, the solver in
// solver.h.
#include "engine/search/search.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/search/expansion.h"
#include "engine/search/formulas.h"
#include "engine/search/mate_search.h"
#include "engine/search/search_internal.h"
#include "engine/search/solver.h"

namespace zh {

void Search::seed(std::uint64_t seed) {
  if (seed == 0) seed = (std::uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  rng_.seed(seed);
}

bool Search::is_repetition(const std::vector<std::uint64_t>& path_keys, const Position& pos) const {
  // pos sits at depth d = path_keys.size() + 1 below the root; path_keys[k] is depth k + 1.
  const int d = int(path_keys.size()) + 1;
  const int window = pos.plies_since_irreversible();
  const std::uint64_t key = pos.key();
  const int hist = int(history_keys_.size());
  for (int j = 2; j <= window; j += 2) {
    std::uint64_t k;
    if (j < d) {
      k = path_keys[d - j - 1];
    } else {
      const int idx = hist - 1 - (j - d);
      if (idx < 0) break;
      k = history_keys_[idx];
    }
    if (k == key) return true;
  }
  return false;
}

void Search::expand(Node* node, EvalBlock* block, const Position& pos,
                    std::vector<Node*>* /*path*/) {
  (void)pos;
  node->set_block(block);
  ++expanded_nodes_;
  if (block->num_edges == 0) {
    // No legal move: the evaluator's block carries the exact value (mate -1, stalemate 0).
    make_terminal(node, block->value < 0 ? Proof::kLoss : Proof::kDraw);
    return;
  }
  if (block->mate_plies > 0) {
    // The mating child exists from the start, as a proven loss for the side it leaves to move
    // (terminal when the mate is at once); the solver then proves this node won, and selection
    // stops exploring elsewhere.
    Node* child = new Node(std::uint16_t(block->mate_edge));
    ++tree_nodes_;
    if (block->mate_plies == 1)
      make_terminal(child, Proof::kLoss);
    else
      child->set_proof(Proof::kLoss, block->mate_plies - 1);
    node->link_child(nullptr, child);
    if (params_.mcts_solver) node->set_proof(Proof::kWin, block->mate_plies);
  }
}

void Search::solve_upward(Node* const* path, int length) {
  if (params_.mcts_solver) prove_ancestors(path, length);
}

void Search::backup(Node* const* path, int length, float value) {
  float v = -value;  // q of a node is for the player who moved into it
  for (int i = length - 1; i >= 0; --i) {
    path[i]->add_visit(v);
    path[i]->remove_in_flight();
    v = -v;
  }
  ++playouts_;
  note_seldepth(length - 1);
}

void Search::revert(Node* const* path, int length) {
  for (int i = 0; i < length; ++i) path[i]->remove_in_flight();
}

template <class N>
double Search::first_play_value(const N* node) const {
  if (!params_.fpu_relative || node->visits() == 0) return params_.q_init;
  const Edge* edges = node->block()->edges();
  double visited_prior = 0;  // children exist once selected, pending ones included
  for (auto* c = node->first_child(); c; c = c->next_sibling())
    visited_prior += edges[c->edge_index()].get_prior();
  // A node's q is for the player who moved into it; its children are chosen by the other.
  return formulas::relative_first_play_value(-double(node->q()), visited_prior,
                                             params_.fpu_reduction);
}

bool Search::virtual_visit(std::uint32_t visits) const {
  // Below virtual_visit_threshold visits a pending playout is a visit whose value is left
  // alone (CrazyAra's virtual visit), above it virtual_loss losses.
  return visits < std::uint32_t(params_.virtual_visit_threshold);
}

template <class N, class C>
int Search::select_child(const N* node, C** out_child, C** out_prev) const {
  const EvalBlock* block = node->block();
  const Edge* edges = block->edges();
  const int num = block->num_edges;
  const double n_parent = node->visits();
  const double pending = virtual_visit(node->visits()) ? 1.0 : double(params_.virtual_loss);
  const double sum_children =
      std::max(0.0, n_parent - 1.0 + pending * (double(node->in_flight()) - 1.0));
  const double sqrt_n = std::sqrt(sum_children);
  const double cpuct = formulas::cpuct(n_parent, params_.cpuct_init, params_.cpuct_base);
  const double u_div = formulas::u_divisor(n_parent, params_.u_min, params_.u_init, params_.u_base);
  const double c_sqrt = cpuct * sqrt_n;

  double best_score = -1e30;
  int best = -1;
  C* best_child = nullptr;
  C* best_prev = nullptr;
  int next_unvisited = 0;
  bool unvisited_done = false;
  C* prev = nullptr;

  const double first_play = first_play_value(node);
  auto consider_unvisited = [&](int idx, C* after) {
    const double score = first_play + c_sqrt * edges[idx].get_prior() / u_div;
    if (score > best_score) {
      best_score = score;
      best = idx;
      best_child = nullptr;
      best_prev = after;
    }
  };

  for (C* c = node->first_child(); c; prev = c, c = c->next_sibling()) {
    const int idx = c->edge_index();
    if (!unvisited_done && next_unvisited < idx) {
      consider_unvisited(next_unvisited, prev);
      unvisited_done = true;
    }
    next_unvisited = idx + 1;
    double score;
    switch (c->proof()) {
      case Proof::kLoss:  // the move wins: take the fastest
        score = 1e20 - c->proof_plies();
        break;
      case Proof::kWin:  // the move loses by force
        score = -1e20 + c->proof_plies();
        break;
      default: {
        const double inflight = c->in_flight();
        // A virtual loss counts each pending playout as a lost visit; a virtual visit as a
        // visit at the child's own Q (so only U shrinks).
        const bool visit_only = virtual_visit(c->visits());
        const double losses = visit_only ? 0.0 : params_.virtual_loss;
        const double n_eff = c->visits() + (visit_only ? 1.0 : losses) * inflight;
        double q;
        if (c->proof() == Proof::kDraw)
          q = 0;
        else if (c->visits() > 0)
          q = (double(c->q()) * c->visits() - losses * inflight) /
              (c->visits() + losses * inflight);
        else if (n_eff > 0 && losses > 0)
          q = -1;  // pending only, under virtual loss
        else
          q = first_play;
        score = q + c_sqrt * edges[idx].get_prior() / (u_div + n_eff);
      }
    }
    if (score > best_score) {
      best_score = score;
      best = idx;
      best_child = c;
      best_prev = nullptr;
    }
  }
  if (!unvisited_done && next_unvisited < num) consider_unvisited(next_unvisited, prev);
  *out_child = best_child;
  *out_prev = best_prev;
  return best;
}

template int Search::select_child(const Node*, Node**, Node**) const;
template int Search::select_child(const GraphNode*, GraphEdge**, GraphEdge**) const;

Search::Pick Search::pick_leaf(Worker& w, Batch& b) {
  if (root_->proof() != Proof::kNone || !root_->expanded()) return Pick::kStop;
  w.path.clear();
  w.path_keys.clear();
  w.pos = root_pos_;
  w.last_moves = last_moves_of(game_.moves());
  Node* node = root_;
  node->add_in_flight();
  w.path.push_back(node);
  for (;;) {
    if (node != root_ && node->proof() != Proof::kNone) {
      solve_upward(w.path.data(), int(w.path.size()));
      backup(w.path.data(), int(w.path.size()), node->proof_value());
      return Pick::kDone;
    }
    if (!node->expanded()) {
      if (node->in_flight() > 1) {
        revert(w.path.data(), int(w.path.size()));
        return Pick::kCollision;
      }
      const std::uint64_t key = eval_key(w.pos, 0);
      if (params_.transpositions) {
        if (EvalBlock* cached = cache_.lookup(key)) {
          expand(node, cached, w.pos, &w.path);
          const float value = node->proof() != Proof::kNone ? node->proof_value() : cached->value;
          if (node->proof() != Proof::kNone) solve_upward(w.path.data(), int(w.path.size()));
          backup(w.path.data(), int(w.path.size()), value);
          return Pick::kDone;
        }
      }
      b.push_leaf({int(b.paths.size()), int(w.path.size()), int(b.keys.size()),
                   int(w.path_keys.size()), key},
                  w.pos, w.last_moves);
      b.paths.insert(b.paths.end(), w.path.begin(), w.path.end());
      b.keys.insert(b.keys.end(), w.path_keys.begin(), w.path_keys.end());
      ++pending_;
      return Pick::kEvaluate;
    }
    Node* child;
    Node* prev;
    const int idx = select_child(node, &child, &prev);
    if (idx < 0) {  // cannot happen for an expanded, unproven node; be safe
      revert(w.path.data(), int(w.path.size()));
      return Pick::kCollision;
    }
    const Move move = node->block()->edges()[idx].get_move();
    w.pos.do_move(move);
    w.last_moves = {move, w.last_moves[0]};
    if (!child) {
      child = new Node(std::uint16_t(idx));
      ++tree_nodes_;
      node->link_child(prev, child);
      if (is_repetition(w.path_keys, w.pos)) make_terminal(child, Proof::kDraw);
    }
    w.path_keys.push_back(w.pos.key());
    child->add_in_flight();
    w.path.push_back(child);
    node = child;
  }
}

void Search::integrate(Batch& b, int i) {
  const Leaf& leaf = b.leaves[i];
  Node* const* path = b.paths.data() + leaf.path_begin;
  Node* node = path[leaf.path_length - 1];
  EvalBlock* block = b.blocks[i];
  b.blocks[i] = nullptr;
  --pending_;
  if (block->evaluated) ++evaluations_;
  block_bytes_ += block->bytes();
  // A mate that a repetition of the path helped to prove is this node's alone.
  const bool shareable = !(block->mate_plies > 0 && b.mates[i].uses_history);
  if (params_.transpositions && shareable) cache_.insert(leaf.key, block);
  expand(node, block, b.inputs[i].position, nullptr);
  const bool proven = node->proof() != Proof::kNone;
  if (proven) solve_upward(path, leaf.path_length);
  backup(path, leaf.path_length, proven ? node->proof_value() : block->value);
}

// The leaf mate search (design 2d), outside the tree lock, before the network sees the leaves:
// each leaf whose side to move has a forced mate within params.leaf_mate_plies is a proven
// win without a network call. The proven leaves move to the end of the batch, the evaluator
// gets the rest.
void Search::prove_leaves(Worker& w, Batch& b) {
  const int k = int(b.leaves.size());
  b.to_evaluate = k;
  if (params_.leaf_mate_plies <= 0) {
    for (int i = 0; i < k; ++i) b.mates[i] = MateProof{};
    return;
  }
  const MateLimits limits{params_.leaf_mate_plies, params_.leaf_mate_nodes};
  for (int i = 0; i < k; ++i) {
    const Leaf& leaf = b.leaves[i];
    // The game's positions, then the path's down to the leaf's parent (history_keys_ changes
    // only between searches).
    w.earlier.assign(history_keys_.begin(), history_keys_.end());
    w.earlier.insert(w.earlier.end(), b.keys.begin() + leaf.keys_begin,
                     b.keys.begin() + leaf.keys_begin + std::max(0, leaf.keys_length - 1));
    b.mates[i] = w.mate.find(b.inputs[i].position, limits, w.earlier);
    // The graph stores a proof on a node every path shares: one that needed this path's
    // repetitions is dropped, and the network evaluates the leaf instead.
    if (graph_ && b.mates[i].uses_history) b.mates[i] = MateProof{};
  }
  for (int i = 0; i < b.to_evaluate;) {
    if (!b.mates[i].found()) {
      ++i;
      continue;
    }
    --b.to_evaluate;
    std::swap(b.leaves[i], b.leaves[b.to_evaluate]);
    std::swap(b.inputs[i], b.inputs[b.to_evaluate]);
    std::swap(b.mates[i], b.mates[b.to_evaluate]);
  }
}

void Search::expand_root_locked(std::unique_lock<std::mutex>& lock) {
  if (root_expanded_locked()) return;
  EvalInput input{root_pos_, game_.repetitions(), last_moves_of(game_.moves())};
  Evaluation out;
  const ExpansionOptions exp_opts = expansion_options(params_);
  lock.unlock();
  EvalBlock* block = nullptr;
  std::string error;
  try {
    {
      // The root's evaluation comes before any worker's: it is all there is to batch.
      const ProducerScope producer(*evaluator_);
      evaluator_->evaluate(std::span<const EvalInput>(&input, 1), std::span<Evaluation>(&out, 1));
    }
    block = make_eval_block(root_pos_, out, exp_opts);
    if (block->num_edges == 0) block->value = terminal_value(root_pos_);
    if (params_.leaf_mate_plies > 0 && block->num_edges > 0) {
      MateSearch mate;
      const MateProof proof = mate.find(
          root_pos_, MateLimits{params_.leaf_mate_plies, params_.leaf_mate_nodes}, history_keys_);
      if (proof.found()) attach_mate(*block, proof);
    }
    // The root's moves become the bestmove: they are checked, the other nodes' are not (see
    // block_matches_position).
    if (!block_matches_position(*block, root_pos_)) {
      block->release();
      block = nullptr;
      error = std::string("evaluator '") + evaluator_->name() +
              "' answered with moves that are not the legal moves of " + root_pos_.fen();
    }
  } catch (const std::exception& e) {
    error = std::string("evaluator '") + evaluator_->name() + "' failed: " + e.what();
  }
  lock.lock();
  if (!block) {
    error_ = error;
    finish_locked(StopReason::kError);
    return;
  }
  ++evaluations_;
  block_bytes_ += block->bytes();
  if (graph_) {
    expand_root_graph(block);
    return;
  }
  expand(root_, block, root_pos_, nullptr);
  // The root's visit: its own evaluation.
  root_->add_visit(-(root_->proof() != Proof::kNone ? root_->proof_value() : block->value));
  ++playouts_;
}

void Search::apply_root_noise() {
  EvalBlock* old = graph_ ? groot_->block() : root_->block();
  const int n = old->num_edges;
  if (n < 2) return;
  EvalBlock* b = old->clone();
  std::gamma_distribution<double> gamma(params_.dirichlet_alpha, 1.0);
  std::vector<double> eta(n);
  double sum = 0;
  for (double& e : eta) sum += (e = gamma(rng_));
  std::vector<float> priors(n);
  for (int i = 0; i < n; ++i) {
    const double noise = sum > 0 ? eta[i] / sum : 1.0 / n;
    priors[i] = float((1 - params_.dirichlet_epsilon) * old->edges()[i].get_prior() +
                      params_.dirichlet_epsilon * noise);
  }
  // Keep edges sorted by prior: remap edge indices of the existing children.
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](int a, int c) { return priors[a] > priors[c]; });
  std::vector<int> new_index(n);
  for (int i = 0; i < n; ++i) {
    new_index[order[i]] = i;
    b->edges()[i].move = old->edges()[order[i]].move;
    b->edges()[i].prior = float_to_half(priors[order[i]]);
  }
  if (old->mate_edge >= 0) b->mate_edge = std::int16_t(new_index[old->mate_edge]);
  if (graph_) {
    apply_root_noise_graph(b, new_index);
    return;
  }
  std::vector<Node*> children;
  for (Node* c = root_->first_child(); c; c = c->next_sibling()) children.push_back(c);
  for (Node* c : children) c->set_edge_index(std::uint16_t(new_index[c->edge_index()]));
  std::sort(children.begin(), children.end(),
            [](Node* a, Node* c) { return a->edge_index() < c->edge_index(); });
  root_->set_first_child(children.empty() ? nullptr : children[0]);
  for (std::size_t i = 0; i < children.size(); ++i)
    children[i]->set_next_sibling(i + 1 < children.size() ? children[i + 1] : nullptr);
  block_bytes_ -= root_->release_block();
  block_bytes_ += b->bytes();
  root_->set_block(b);
}

}  // namespace zh
