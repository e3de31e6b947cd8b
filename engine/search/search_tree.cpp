// Search's tree between searches: its memory (nodes, blocks, the garbage of tree reuse freed a
// little per batch, the caps), tree reuse from one move to the next (set_game), and the audit
// the tests run on a finished search.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "engine/chess/notation.h"
#include "engine/search/expansion.h"
#include "engine/search/search.h"

namespace zh {

void Search::set_evaluator(std::shared_ptr<Evaluator> evaluator) {
  std::lock_guard lock(mutex_);
  evaluator_ = std::move(evaluator);
  // Cached evaluations came from the old network.
  free_all_locked();
}

void Search::free_all_locked() {
  free_garbage_locked(SIZE_MAX);
  free_subtree(root_);
  root_ = nullptr;
  clear_graph_locked();
  have_game_ = false;
  block_bytes_ -= cache_.clear();
}

void Search::use_structure_locked(bool graph) {
  if (graph == graph_) return;
  free_all_locked();
  graph_ = graph;
}

void Search::make_root_locked() {
  if (!graph_) {
    root_ = new Node(0);
    ++tree_nodes_;
    return;
  }
  // Outside the table when its key is taken (a node the reuse had to drop): only repetitions
  // lead back to the root, and they never look it up.
  const std::uint64_t key = eval_key(root_pos_, 0);
  if (table_.find(key)) {
    groot_ = new GraphNode(key);
    ++tree_nodes_;
    groot_->retain();
  } else {
    groot_ = acquire_graph_node(key);
  }
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
  free_all_locked();
  if (prover_) prover_->forget();  // its proofs are the last game's
}

std::uint32_t Search::set_game(const Game& game, const SearchParams& params) {
  std::lock_guard lock(mutex_);
  use_structure_locked(params.graph);
  params_ = params;
  if (graph_) return set_game_graph_locked(game);
  Node* node = nullptr;
  const auto& old_moves = game_.moves();
  const auto& new_moves = game.moves();
  if (root_ && params.reuse_tree && extends_game(game)) {
    node = root_;
    for (std::size_t i = old_moves.size(); i < new_moves.size() && node; ++i) {
      Node* child = nullptr;
      if (node->expanded()) {
        const int e = node->block()->edge_of(new_moves[i]);
        if (e >= 0) child = node->unlink_child(std::uint16_t(e));
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
  if (!root_) make_root_locked();
  game_ = game;
  have_game_ = true;
  root_pos_ = game.position();
  history_keys_ = game.keys();
  return root_->visits();
}

std::uint32_t Search::set_game_graph_locked(const Game& game) {
  GraphNode* node = nullptr;
  if (groot_ && params_.reuse_tree && extends_game(game)) {
    node = reuse_graph_locked(game);
  } else {
    clear_graph_locked();  // another game: start clean
  }
  game_ = game;
  have_game_ = true;
  root_pos_ = game.position();
  history_keys_ = game.keys();
  groot_ = node;
  if (!groot_) make_root_locked();
  mark_root_repetitions_graph();
  return groot_->visits();
}

bool Search::extends_game(const Game& game) const {
  const auto& old_moves = game_.moves();
  const auto& new_moves = game.moves();
  return have_game_ && game.start() == game_.start() && new_moves.size() >= old_moves.size() &&
         std::equal(old_moves.begin(), old_moves.end(), new_moves.begin());
}

std::vector<std::string> Search::take_notes() {
  std::lock_guard lock(mutex_);
  return std::exchange(notes_, {});
}

// The graph's figures are atomics: limit_reached() reads them without the mutex.
std::size_t Search::bytes_locked() const {
  if (graph_)
    return std::size_t(tree_nodes_) * sizeof(GraphNode) +
           std::size_t(graph_edges_) * sizeof(GraphEdge) + block_bytes_ + table_.bytes();
  return std::size_t(tree_nodes_) * sizeof(Node) + block_bytes_ + cache_.bytes();
}

bool Search::over_caps_locked() const {
  return (params_.max_tree_nodes > 0 && tree_nodes_ >= params_.max_tree_nodes) ||
         bytes_locked() >= std::size_t(params_.max_memory_mb) << 20;
}

TreeAudit Search::audit_tree() const {
  std::lock_guard lock(mutex_);
  if (graph_) return audit_graph();
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

}  // namespace zh
