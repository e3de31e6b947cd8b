#include "engine/search/search.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <exception>
#include <span>
#include <sstream>
#include <utility>

#include "engine/chess/notation.h"
#include "engine/search/expansion.h"
#include "engine/search/mate_search.h"
#include "engine/search/formulas.h"

namespace zh {

const char* to_string(StopReason r) {
  switch (r) {
    case StopReason::kNone:
      return "none";
    case StopReason::kRequested:
      return "stop";
    case StopReason::kPlayouts:
      return "node limit";
    case StopReason::kSolved:
      return "solved";
    case StopReason::kTreeNodes:
      return "tree node cap";
    case StopReason::kMemory:
      return "memory cap";
    case StopReason::kError:
      return "error";
  }
  return "?";
}

struct Search::Leaf {
  int path_begin;
  int path_length;
  int keys_begin;  // the keys of the positions below the root on its path, in Batch::keys
  int keys_length;
  std::uint64_t key;
};

// One mini-batch of leaves on its way through the evaluator.
struct Search::Batch {
  std::vector<Node*> paths;  // the paths of the queued leaves, back to back
  std::vector<std::uint64_t> keys;
  std::vector<Leaf> leaves;
  std::vector<EvalInput> inputs;
  std::vector<Evaluation> outputs;
  std::vector<EvalBlock*> blocks;
  std::vector<MateProof> mates;  // the leaf mate search's answer per leaf
  // The first `to_evaluate` leaves go to the evaluator; the rest were proven mates.
  int to_evaluate = 0;
  std::future<void> done;    // an evaluation started with evaluate_async()
  std::exception_ptr error;  // a failure of the evaluation or of building the blocks
};

struct Search::Worker {
  std::vector<Node*> path;               // the current descent
  std::vector<std::uint64_t> path_keys;  // keys below the root on the current descent
  Position pos;
  MateSearch mate;
  std::vector<std::uint64_t> earlier;  // the game's keys and a leaf's path, for the mate search
  // params.batches_per_thread of them, used in turn: the oldest in flight is completed first.
  std::vector<Batch> batches;
};

Search::Search(std::shared_ptr<Evaluator> evaluator) : evaluator_(std::move(evaluator)) { seed(0); }

Search::~Search() {
  request_stop();
  join();
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
  }
  pool_cv_.notify_all();
  for (auto& t : threads_) t.join();
  clear();
}

void Search::seed(std::uint64_t seed) {
  if (seed == 0) seed = (std::uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  rng_.seed(seed);
}

void Search::set_evaluator(std::shared_ptr<Evaluator> evaluator) {
  std::lock_guard lock(mutex_);
  evaluator_ = std::move(evaluator);
  // Cached evaluations came from the old network.
  free_garbage_locked(SIZE_MAX);
  free_subtree(root_);
  root_ = nullptr;
  have_game_ = false;
  block_bytes_ -= cache_.clear();
}

void Search::free_subtree(Node* n) {
  const FreedMemory f = delete_subtree(n);
  tree_nodes_ -= std::int64_t(f.nodes);
  expanded_nodes_ -= std::int64_t(f.expanded);
  block_bytes_ -= f.block_bytes;
}

void Search::discard_locked(Node* n) {
  if (!n) return;
  garbage_.push_back(n);
  prune_pending_ = true;
}

// Frees up to `max_nodes` nodes of the garbage (depth first: a node's children take its place
// on the stack), then prunes the cache once the garbage is gone.
void Search::free_garbage_locked(std::size_t max_nodes) {
  for (std::size_t freed = 0; freed < max_nodes && !garbage_.empty(); ++freed) {
    Node* n = garbage_.back();
    garbage_.pop_back();
    for (Node* c = n->first_child(); c; c = c->next_sibling()) garbage_.push_back(c);
    expanded_nodes_ -= n->expanded() ? 1 : 0;
    block_bytes_ -= n->release_block();
    delete n;
    --tree_nodes_;
  }
  if (garbage_.empty() && prune_pending_) {
    block_bytes_ -= cache_.prune_unused();
    prune_pending_ = false;
  }
}

void Search::clear() {
  std::lock_guard lock(mutex_);
  free_garbage_locked(SIZE_MAX);
  free_subtree(root_);
  root_ = nullptr;
  have_game_ = false;
  block_bytes_ -= cache_.clear();
}

std::uint32_t Search::set_game(const Game& game, const SearchParams& params) {
  std::lock_guard lock(mutex_);
  params_ = params;
  Node* node = nullptr;
  const auto& old_moves = game_.moves();
  const auto& new_moves = game.moves();
  if (root_ && params.reuse_tree && have_game_ && game.start() == game_.start() &&
      new_moves.size() >= old_moves.size() &&
      std::equal(old_moves.begin(), old_moves.end(), new_moves.begin())) {
    node = root_;
    for (std::size_t i = old_moves.size(); i < new_moves.size() && node; ++i) {
      Node* child = nullptr;
      if (node->expanded()) {
        const EvalBlock* b = node->block();
        for (int e = 0; e < b->num_edges; ++e) {
          if (b->edges()[e].move == new_moves[i].raw()) {
            child = node->unlink_child(std::uint16_t(e));
            break;
          }
        }
      }
      discard_locked(node);
      node = child;
    }
    // A repetition is a draw below the root, never at the root: the game goes on.
    if (node && node->terminal() && node->expanded() == false) {
      discard_locked(node);
      node = nullptr;
    }
  } else {
    // Another game (a new one, a test position): start clean, as the next search expects.
    free_garbage_locked(SIZE_MAX);
    free_subtree(root_);
    block_bytes_ -= cache_.prune_unused();
  }
  // The kept node must be the position the game reached. One that is not (a tree or cache
  // defect) would make the search answer with a move of another position: start afresh.
  if (node && node->expanded() && !block_matches_position(*node->block(), game.position())) {
    const EvalBlock& b = *node->block();
    // A stream, not `"literal" + std::string`: GCC 12 at -O3 reports a false -Wrestrict on that.
    std::ostringstream note;
    note << "the kept search tree does not match the position " << game.position().fen()
         << " (its moves:";
    for (int e = 0; e < std::min<int>(b.num_edges, 4); ++e)  // the first few tell whose they are
      note << ' ' << to_uci(b.edges()[e].get_move());
    note << (b.num_edges > 4 ? " ..." : "") << ", " << b.num_edges << " of them; legal moves "
         << game.position().count_legal_moves() << "); searching afresh";
    notes_.push_back(note.str());
    discard_locked(node);
    node = nullptr;
  }
  // A node proven by a leaf mate search before any network call has no priors to search
  // with: start afresh (the root's own mate search proves the mate again at once).
  if (node && node->expanded() && !node->block()->evaluated) {
    discard_locked(node);
    node = nullptr;
  }
  // A proof is about the tree below the root: the solver proves a kept root again from its
  // children, and a root proven from outside (a mate proof) is searched, not trusted blindly.
  if (node && !node->terminal()) node->set_proof(Proof::kNone, 0);
  root_ = node;
  if (!root_) {
    root_ = new Node(0);
    ++tree_nodes_;
  }
  game_ = game;
  have_game_ = true;
  root_pos_ = game.position();
  history_keys_ = game.keys();
  return root_->visits();
}

std::vector<std::string> Search::take_notes() {
  std::lock_guard lock(mutex_);
  return std::exchange(notes_, {});
}

std::size_t Search::bytes_locked() const {
  return std::size_t(tree_nodes_) * sizeof(Node) + block_bytes_ + cache_.bytes();
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

void Search::make_terminal(Node* node, Proof proof) {
  node->set_terminal();
  node->set_proof(proof, 0);
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

bool Search::try_prove(Node* node) {
  if (!node->expanded() || node->proof() != Proof::kNone) return false;
  int count = 0;
  bool all_proven = true;
  bool any_draw = false;
  int min_win = INT_MAX;
  int max_loss = 0;
  for (Node* c = node->first_child(); c; c = c->next_sibling()) {
    ++count;
    switch (c->proof()) {
      case Proof::kLoss:
        min_win = std::min(min_win, c->proof_plies());
        break;
      case Proof::kWin:
        max_loss = std::max(max_loss, c->proof_plies());
        break;
      case Proof::kDraw:
        any_draw = true;
        break;
      case Proof::kNone:
        all_proven = false;
        break;
    }
  }
  if (min_win != INT_MAX) {
    node->set_proof(Proof::kWin, min_win + 1);
    return true;
  }
  if (!all_proven || count < node->num_edges()) return false;
  if (any_draw)
    node->set_proof(Proof::kDraw, 0);
  else
    node->set_proof(Proof::kLoss, max_loss + 1);
  return true;
}

void Search::solve_upward(Node* const* path, int length) {
  if (!params_.mcts_solver) return;
  for (int i = length - 2; i >= 0; --i)
    if (!try_prove(path[i])) break;
}

void Search::backup(Node* const* path, int length, float value) {
  float v = -value;  // q of a node is for the player who moved into it
  for (int i = length - 1; i >= 0; --i) {
    path[i]->add_visit(v);
    path[i]->remove_in_flight();
    v = -v;
  }
  ++playouts_;
  seldepth_ = std::max(seldepth_, length - 1);
}

void Search::revert(Node* const* path, int length) {
  for (int i = 0; i < length; ++i) path[i]->remove_in_flight();
}

double Search::first_play_value(Node* node) const {
  if (!params_.fpu_relative || node->visits() == 0) return params_.q_init;
  const Edge* edges = node->block()->edges();
  double visited_prior = 0;  // children exist once selected, pending ones included
  for (Node* c = node->first_child(); c; c = c->next_sibling())
    visited_prior += edges[c->edge_index()].get_prior();
  // A node's q is for the player who moved into it; its children are chosen by the other.
  return formulas::relative_first_play_value(-double(node->q()), visited_prior,
                                             params_.fpu_reduction);
}

int Search::select_child(Node* node, Node** out_child, Node** out_prev) const {
  const EvalBlock* block = node->block();
  const Edge* edges = block->edges();
  const int num = block->num_edges;
  const double vl = params_.virtual_loss;
  const double n_parent = node->visits();
  const double sum_children =
      std::max(0.0, n_parent - 1.0 + vl * (double(node->in_flight()) - 1.0));
  const double sqrt_n = std::sqrt(sum_children);
  const double cpuct = formulas::cpuct(n_parent, params_.cpuct_init, params_.cpuct_base);
  const double u_div = formulas::u_divisor(n_parent, params_.u_min, params_.u_init, params_.u_base);
  const double c_sqrt = cpuct * sqrt_n;

  double best_score = -1e30;
  int best = -1;
  Node* best_child = nullptr;
  Node* best_prev = nullptr;
  int next_unvisited = 0;
  bool unvisited_done = false;
  Node* prev = nullptr;

  const double first_play = first_play_value(node);
  auto consider_unvisited = [&](int idx, Node* after) {
    const double score = first_play + c_sqrt * edges[idx].get_prior() / u_div;
    if (score > best_score) {
      best_score = score;
      best = idx;
      best_child = nullptr;
      best_prev = after;
    }
  };

  for (Node* c = node->first_child(); c; prev = c, c = c->next_sibling()) {
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
        const double n_eff = c->visits() + vl * inflight;
        double q;
        if (c->proof() == Proof::kDraw)
          q = 0;
        else if (n_eff > 0)
          q = (double(c->q()) * c->visits() - vl * inflight) / n_eff;
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

Search::Pick Search::pick_leaf(Worker& w, Batch& b) {
  if (root_->proof() != Proof::kNone || !root_->expanded()) return Pick::kStop;
  w.path.clear();
  w.path_keys.clear();
  w.pos = root_pos_;
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
      const int k = int(b.leaves.size());
      b.leaves.push_back({int(b.paths.size()), int(w.path.size()), int(b.keys.size()),
                          int(w.path_keys.size()), key});
      b.paths.insert(b.paths.end(), w.path.begin(), w.path.end());
      b.keys.insert(b.keys.end(), w.path_keys.begin(), w.path_keys.end());
      if (int(b.inputs.size()) <= k) {
        b.inputs.resize(k + 1);
        b.outputs.resize(k + 1);
        b.blocks.resize(k + 1);
        b.mates.resize(k + 1);
      }
      b.inputs[k].position = w.pos;
      b.inputs[k].repetitions = 0;  // a repetition below the root is a terminal draw
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
    w.pos.do_move(node->block()->edges()[idx].get_move());
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

void Search::finish_locked(StopReason reason) {
  if (reason_ == StopReason::kNone) reason_ = reason;
  stop_.store(true, std::memory_order_release);
  finished_.store(true, std::memory_order_release);
  finished_cv_.notify_all();
  backup_cv_.notify_all();
  if (on_finished_) on_finished_();
}

bool Search::over_caps_locked() const {
  return (params_.max_tree_nodes > 0 && tree_nodes_ >= params_.max_tree_nodes) ||
         bytes_locked() >= std::size_t(params_.max_memory_mb) << 20;
}

void Search::check_limits_locked() {
  // The caps are for the live tree: garbage in the way of one is freed at once.
  if (!garbage_.empty() && over_caps_locked()) free_garbage_locked(SIZE_MAX);
  if (root_->proof() != Proof::kNone) {
    finish_locked(StopReason::kSolved);
  } else if (limits_.playouts > 0 && playouts_ >= limits_.playouts) {
    finish_locked(StopReason::kPlayouts);
  } else if (params_.max_tree_nodes > 0 && tree_nodes_ >= params_.max_tree_nodes) {
    finish_locked(StopReason::kTreeNodes);
  } else if (bytes_locked() >= std::size_t(params_.max_memory_mb) << 20) {
    finish_locked(StopReason::kMemory);
  }
}

namespace {

ExpansionOptions expansion_options(const SearchParams& p) {
  ExpansionOptions o;
  o.check_enhancement = p.check_enhancement;
  o.check_threshold = p.check_threshold;
  o.check_factor = p.check_factor;
  return o;
}

// The value of a position without legal moves, for the side to move.
float terminal_value(const Position& pos) { return pos.in_check() ? -1.0f : 0.0f; }

}  // namespace

void Search::pool_loop(int index, std::uint64_t seen_generation) {
  std::unique_lock lock(mutex_);
  for (;;) {
    pool_cv_.wait(lock, [&] { return quit_ || generation_ != seen_generation; });
    if (quit_) return;
    seen_generation = generation_;
    if (index >= team_size_) continue;  // a smaller team this time
    Worker& w = *worker_state_[index];
    lock.unlock();
    worker_loop(w);
    lock.lock();
    // Every way out of the loop is a stop; one without a reason of its own was asked for.
    if (reason_ == StopReason::kNone) reason_ = StopReason::kRequested;
    if (--busy_ == 0) idle_cv_.notify_all();
  }
}

// Selects up to `batch` leaves into `b` under the tree lock. With nothing selectable and
// `may_wait` (no batch of this thread in flight whose backup would change the tree), waits a
// little for another thread's backup. Returns false once the search stops.
bool Search::gather(Worker& w, Batch& b, int batch, bool may_wait) {
  b.leaves.clear();
  b.paths.clear();
  b.keys.clear();
  int terminals = 0;
  std::unique_lock lock(mutex_);
  int collisions = 0;
  while (int(b.leaves.size()) < batch && !stop_.load(std::memory_order_relaxed)) {
    if (limits_.playouts > 0 && playouts_ + pending_ >= limits_.playouts) break;
    const Pick r = pick_leaf(w, b);
    if (r == Pick::kDone) {
      check_limits_locked();
      if (++terminals >= 2 * batch) break;
    } else if (r == Pick::kCollision) {
      if (++collisions >= batch) break;
    } else if (r == Pick::kStop) {
      check_limits_locked();
      break;
    }
  }
  if (b.leaves.empty()) {
    if (stop_.load(std::memory_order_relaxed)) return false;
    // Everything selectable is pending in other threads: wait for one of their backups.
    if (may_wait && terminals == 0) backup_cv_.wait_for(lock, std::chrono::milliseconds(1));
  }
  return true;
}

// Hands the batch to the evaluator: in the background where `async` (the thread goes on to
// select the next batch), else on this thread. Outside the tree lock.
void Search::submit(Batch& b, bool async) {
  const int k = b.to_evaluate;
  b.error = nullptr;
  if (k == 0) return;  // every leaf was a proven mate
  const std::span<const EvalInput> inputs(b.inputs.data(), k);
  const std::span<Evaluation> outputs(b.outputs.data(), k);
  try {
    if (async)
      b.done = evaluator_->evaluate_async(inputs, outputs);
    else
      evaluator_->evaluate(inputs, outputs);
  } catch (...) {
    b.error = std::current_exception();
  }
}

// Waits for the batch's evaluation, builds its blocks outside the lock, then expands and backs
// up its leaves (or, if the evaluator failed, takes their virtual loss back and ends the search).
void Search::complete(Batch& b, const ExpansionOptions& exp_opts) {
  const int k = int(b.leaves.size());
  if (b.done.valid()) {
    try {
      b.done.get();
    } catch (...) {
      if (!b.error) b.error = std::current_exception();
    }
  }
  if (!b.error) {
    try {
      for (int i = 0; i < b.to_evaluate; ++i) {
        b.blocks[i] = make_eval_block(b.inputs[i].position, b.outputs[i], exp_opts);
        if (b.blocks[i]->num_edges == 0) b.blocks[i]->value = terminal_value(b.inputs[i].position);
      }
      for (int i = b.to_evaluate; i < k; ++i)
        b.blocks[i] = make_proven_block(b.inputs[i].position, b.mates[i]);
    } catch (...) {
      b.error = std::current_exception();
    }
  }
  {
    std::lock_guard lock(mutex_);
    if (b.error) {
      for (int i = 0; i < k; ++i) {
        revert(b.paths.data() + b.leaves[i].path_begin, b.leaves[i].path_length);
        if (b.blocks[i]) {
          b.blocks[i]->release();
          b.blocks[i] = nullptr;
        }
      }
      pending_ -= k;
      if (error_.empty()) {  // the first failure is the one to report
        std::string what = "unknown error";
        try {
          std::rethrow_exception(b.error);
        } catch (const std::exception& e) {
          what = e.what();
        } catch (...) {
        }
        error_ = std::string("evaluator '") + evaluator_->name() + "' failed: " + what;
      }
      finish_locked(StopReason::kError);
      b.error = nullptr;
    } else {
      for (int i = 0; i < k; ++i) integrate(b, i);
      // Freed faster than the batch grows the tree, so the garbage of tree reuse goes away
      // within the next search or two; a fixed amount keeps one-thread searches reproducible.
      if (!garbage_.empty()) free_garbage_locked(std::size_t(4 * std::max(1, params_.batch_size)));
      check_limits_locked();
    }
    b.leaves.clear();
  }
  backup_cv_.notify_all();
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

// Keeps up to params.batches_per_thread mini-batches in flight: while the evaluator (a device)
// runs the oldest, the thread selects and submits the next; it completes them in the order it
// submitted them, so one thread's search does not depend on timing. On a stop it stops
// selecting and completes what is in flight before it returns: no evaluation outlives it.
void Search::worker_loop(Worker& w) {
  const int batch = std::max(1, params_.batch_size);
  const int depth = std::max(1, params_.batches_per_thread);
  const bool async = depth > 1;
  const ExpansionOptions exp_opts = expansion_options(params_);
  if (int(w.batches.size()) < depth) w.batches.resize(std::size_t(depth));
  int oldest = 0;     // index of the oldest batch in flight
  int in_flight = 0;  // batches submitted and not yet completed
  for (;;) {
    while (in_flight < depth && !stop_.load(std::memory_order_acquire)) {
      Batch& b = w.batches[std::size_t((oldest + in_flight) % depth)];
      if (!gather(w, b, batch, in_flight == 0)) break;
      if (b.leaves.empty()) {
        if (in_flight > 0) break;  // our own batch's backup is what the tree waits for
        continue;
      }
      prove_leaves(w, b);
      submit(b, async);
      ++in_flight;
    }
    if (in_flight == 0) break;  // stopped, nothing left to complete
    complete(w.batches[std::size_t(oldest)], exp_opts);
    oldest = (oldest + 1) % depth;
    --in_flight;
  }
}

void Search::expand_root_locked(std::unique_lock<std::mutex>& lock) {
  if (root_->expanded()) return;
  EvalInput input{root_pos_, game_.repetitions()};
  Evaluation out;
  const ExpansionOptions exp_opts = expansion_options(params_);
  lock.unlock();
  EvalBlock* block = nullptr;
  std::string error;
  try {
    evaluator_->evaluate(std::span<const EvalInput>(&input, 1), std::span<Evaluation>(&out, 1));
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
  expand(root_, block, root_pos_, nullptr);
  // The root's visit: its own evaluation.
  root_->add_visit(-(root_->proof() != Proof::kNone ? root_->proof_value() : block->value));
  ++playouts_;
}

void Search::apply_root_noise() {
  EvalBlock* old = root_->block();
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

void Search::start(const SearchParams& params, const NodeLimits& limits) {
  join();
  std::unique_lock lock(mutex_);
  if (!root_) {
    root_ = new Node(0);
    ++tree_nodes_;
    root_pos_ = game_.position();
    history_keys_ = game_.keys();
  }
  params_ = params;
  limits_ = limits;
  playouts_ = 0;
  evaluations_ = 0;
  pending_ = 0;
  seldepth_ = 0;
  reason_ = StopReason::kNone;
  error_.clear();
  stop_.store(false);
  finished_.store(false);
  expand_root_locked(lock);
  if (finished_.load()) return;
  if (params_.dirichlet_noise && root_->proof() == Proof::kNone) apply_root_noise();
  check_limits_locked();
  if (finished_.load()) return;
  const int n = std::max(1, params_.threads);
  while (int(threads_.size()) < n) {  // the first search, or more threads than ever before
    const int index = int(threads_.size());
    worker_state_.push_back(std::make_unique<Worker>());
    threads_.emplace_back([this, index, seen = generation_] { pool_loop(index, seen); });
  }
  team_size_ = n;
  busy_ = n;
  ++generation_;
  start_prover_locked();
  lock.unlock();
  pool_cv_.notify_all();
}

void Search::start_prover_locked() {
  if (params_.root_mate_share <= 0 || root_->proof() != Proof::kNone) return;
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

// The root moves the tree likes most (by visits, then prior), unproven, for the prover to check
// for the opponent's mate.
std::vector<Move> Search::prover_candidates() {
  constexpr int kCandidates = 3;
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::uint32_t, int>> order;  // (visits, edge)
  const EvalBlock* b = root_->block();
  Node* c = root_->first_child();
  for (int e = 0; e < b->num_edges; ++e) {
    const bool has = c && c->edge_index() == e;
    if (!has || c->proof() == Proof::kNone) order.emplace_back(has ? c->visits() : 0, e);
    if (has) c = c->next_sibling();
  }
  // Most visits first; edges are in prior order, so ties keep the better prior.
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& x, const auto& y) { return x.first > y.first; });
  std::vector<Move> moves;
  for (std::size_t i = 0; i < order.size() && int(i) < kCandidates; ++i)
    moves.push_back(b->edges()[order[i].second].get_move());
  return moves;
}

Node* Search::root_child_locked(Move move) {
  const EvalBlock* b = root_->block();
  int edge = -1;
  for (int e = 0; e < b->num_edges && edge < 0; ++e)
    if (b->edges()[e].move == move.raw()) edge = e;
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
  if (stop_.load(std::memory_order_relaxed) || root_->proof() != Proof::kNone) return;
  Node* child = root_child_locked(move);
  if (!child || child->proof() != Proof::kNone) return;
  child->set_proof(Proof::kLoss, plies - 1);
  if (params_.mcts_solver) try_prove(root_);
  check_limits_locked();
}

// The opponent mates after `move`: a proven loss, never chosen while another move exists.
void Search::prover_move_refuted(Move move, int plies) {
  std::lock_guard lock(mutex_);
  if (stop_.load(std::memory_order_relaxed) || root_->proof() != Proof::kNone) return;
  Node* child = root_child_locked(move);
  if (!child || child->proof() != Proof::kNone) return;
  child->set_proof(Proof::kWin, plies);
  if (params_.mcts_solver) try_prove(root_);
  check_limits_locked();
}

void Search::request_stop() {
  signal_stop();  // before the lock: the workers see it at their next check
  std::lock_guard lock(mutex_);
  if (reason_ == StopReason::kNone && busy_ > 0) reason_ = StopReason::kRequested;
  backup_cv_.notify_all();
}

void Search::join() {
  {
    std::unique_lock lock(mutex_);
    idle_cv_.wait(lock, [&] { return busy_ == 0; });
  }
  // The workers stop only once stop_ is set, and so does the prover (outside the tree lock:
  // its callbacks take it).
  if (prover_) prover_->wait();
  finished_.store(true, std::memory_order_release);
}

int Search::worker_threads() const {
  std::lock_guard lock(mutex_);
  return int(threads_.size());
}

bool Search::wait_finished_for(int ms) {
  std::unique_lock lock(mutex_);
  finished_cv_.wait_for(lock, std::chrono::milliseconds(ms),
                        [&] { return finished_.load(std::memory_order_acquire); });
  return finished_.load(std::memory_order_acquire);
}

void Search::fill_pv(Node* node, int first_edge, std::vector<Move>& pv) const {
  pv.push_back(node->block()->edges()[first_edge].get_move());
  Node* cur = node->find_child(std::uint16_t(first_edge));
  while (cur && cur->expanded() && pv.size() < 128) {
    Node* best = nullptr;
    for (Node* c = cur->first_child(); c; c = c->next_sibling()) {
      if (c->proof() == Proof::kLoss) {  // a winning move for the side to move here
        if (!best || best->proof() != Proof::kLoss || c->proof_plies() < best->proof_plies())
          best = c;
        continue;
      }
      if (best && best->proof() == Proof::kLoss) continue;
      if (!best || c->visits() > best->visits()) best = c;
    }
    if (!best || (best->visits() == 0 && best->proof() == Proof::kNone)) break;
    pv.push_back(cur->block()->edges()[best->edge_index()].get_move());
    cur = best;
  }
}

TreeAudit Search::audit_tree() const {
  std::lock_guard lock(mutex_);
  TreeAudit a;
  a.pending = pending_;
  std::vector<const Node*> stack;
  if (root_) stack.push_back(root_);
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    ++a.nodes;
    a.in_flight += n->in_flight();
    std::uint64_t below = 0;
    for (const Node* c = n->first_child(); c; c = c->next_sibling()) {
      below += c->visits();
      stack.push_back(c);
    }
    if (n->expanded() && n->proof() == Proof::kNone && n->visits() != below + 1)
      ++a.visit_mismatches;
  }
  return a;
}

SearchSnapshot Search::snapshot() const {
  std::lock_guard lock(mutex_);
  SearchSnapshot s;
  s.playouts = playouts_;
  s.evaluations = evaluations_;
  s.seldepth = seldepth_;
  s.tree_nodes = tree_nodes_;
  s.expanded_nodes = expanded_nodes_;
  s.tree_bytes = bytes_locked();
  s.memory_cap_bytes = std::size_t(params_.max_memory_mb) << 20;
  s.reason = reason_;
  s.error = error_;
  if (!root_ || !root_->expanded()) return s;
  s.root_expanded = true;
  s.root_visits = root_->visits();
  s.root_proof = root_->proof();
  s.root_proof_plies = root_->proof_plies();
  const EvalBlock* b = root_->block();
  s.children.resize(b->num_edges);
  Node* c = root_->first_child();
  for (int i = 0; i < b->num_edges; ++i) {
    RootChild& rc = s.children[i];
    rc.move = b->edges()[i].get_move();
    rc.prior = b->edges()[i].get_prior();
    if (c && c->edge_index() == i) {
      rc.visits = c->visits();
      rc.q = c->q();
      rc.proof = c->proof();
      rc.proof_plies = c->proof_plies();
      if (rc.proof == Proof::kDraw) rc.q = 0;
      if (rc.proof == Proof::kLoss) rc.q = 1;
      if (rc.proof == Proof::kWin) rc.q = -1;
      // Eq. (6): the Q a few plies down the move's main line, when asked for.
      if (params_.q_pv_depth > 0 && rc.proof == Proof::kNone) {
        Node* cur = c;
        float sign = 1;
        for (int d = 0; d < params_.q_pv_depth; ++d) {
          Node* best = nullptr;
          for (Node* g = cur->first_child(); g; g = g->next_sibling())
            if (!best || g->visits() > best->visits()) best = g;
          if (!best || best->visits() == 0) break;
          cur = best;
          sign = -sign;
        }
        rc.q = sign * cur->q();
      }
      c = c->next_sibling();
    }
  }
  s.best = choose_move(s.children, s.root_visits, params_.move_choice());
  if (s.best >= 0) fill_pv(root_, s.best, s.pv);
  return s;
}

}  // namespace zh
