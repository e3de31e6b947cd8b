// The Monte-Carlo graph (search.graph; graph.h has the structure, docs/search-formulas.md "The
// graph" the rules): selection through shared nodes with the transposition correction,
// repetitions as draws of the playout, backup along the path's edges and nodes, the graph's
// memory (nodes freed when their last reference goes), reuse between moves, the reports and
// the audit. Selection, expansion and backup run without the search's mutex (graph.h says
// how the structure allows it); freeing, reuse and the reports take it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "engine/chess/notation.h"
#include "engine/search/expansion.h"
#include "engine/search/search.h"
#include "engine/search/search_internal.h"
#include "engine/search/solver.h"

namespace zh {

namespace {

// An edge whose Q differs from its child node's value by more than this is brought to it
// (one correcting backup) before a playout may descend through it (CrazyAra's threshold).
constexpr float kTranspositionQDiff = 0.01f;

// The value to back up through an edge so that its Q becomes its child's: Q' = (N Q + t) /
// (N + 1) = q_child, clipped to a value a playout can return.
float correction_target(const GraphEdge* e, const GraphNode* child) {
  const float t = child->q() + float(e->visits()) * (child->q() - e->q());
  return std::clamp(t, -1.0f, 1.0f);
}

}  // namespace

GraphNode* Search::acquire_graph_node(std::uint64_t key) {
  bool made = false;
  GraphNode* node = table_.acquire(key, &made);
  if (made) ++tree_nodes_;
  return node;
}

// Under the mutex, or with no search running: graph_garbage_ is the mutex's.
void Search::release_graph_node(GraphNode* node) {
  if (table_.drop(node)) graph_garbage_.push_back(node);  // no playout finds it again
}

GraphEdge* Search::graph_edge(GraphNode* node, int idx) {
  std::lock_guard lock(graph_lock(node));
  GraphEdge* prev = nullptr;
  for (GraphEdge* c = node->first_child(); c && c->edge_index() <= idx; c = c->next_sibling()) {
    if (c->edge_index() == idx) return c;  // another thread added it meanwhile
    prev = c;
  }
  auto* edge = new GraphEdge(std::uint16_t(idx));
  ++graph_edges_;
  node->link_child(prev, edge);
  return edge;
}

GraphNode* Search::graph_child(GraphNode* parent, GraphEdge* edge, const Position& after) {
  if (GraphNode* c = edge->child()) return c;
  std::lock_guard lock(graph_lock(parent));
  if (GraphNode* c = edge->child()) return c;
  GraphNode* c = acquire_graph_node(eval_key(after, 0));
  edge->set_child(c);
  return c;
}

void Search::note_seldepth(int depth) {
  int seen = seldepth_.load(std::memory_order_relaxed);
  while (depth > seen && !seldepth_.compare_exchange_weak(seen, depth, std::memory_order_relaxed)) {
  }
}

void Search::free_graph_garbage_locked(std::size_t max_nodes) {
  for (std::size_t freed = 0; freed < max_nodes && !graph_garbage_.empty(); ++freed) {
    GraphNode* n = graph_garbage_.back();
    graph_garbage_.pop_back();
    delete_graph_node_locked(n, true);
  }
}

void Search::delete_graph_node_locked(GraphNode* n, bool release_children) {
  for (GraphEdge* e = n->first_child(); e;) {
    GraphEdge* next = e->next_sibling();
    if (release_children && e->child()) release_graph_node(e->child());
    delete e;
    --graph_edges_;
    e = next;
  }
  expanded_nodes_ -= n->expanded() ? 1 : 0;
  block_bytes_ -= n->release_block();
  delete n;
  --tree_nodes_;
}

void Search::clear_graph_locked() {
  std::vector<GraphNode*> nodes = table_.all();
  nodes.insert(nodes.end(), graph_garbage_.begin(), graph_garbage_.end());
  if (groot_ && table_.find(groot_->key()) != groot_) nodes.push_back(groot_);
  for (GraphNode* n : nodes) delete_graph_node_locked(n, false);  // every node goes anyway
  table_.forget_all();
  graph_garbage_.clear();
  groot_ = nullptr;
}

void Search::backup_graph(GraphNode* const* nodes, GraphEdge* const* edges, int length,
                          float value) {
  float v = -value;  // for the player who moved into the last node
  for (int i = length - 1; i >= 0; --i) {
    nodes[i]->add_visit(v);
    nodes[i]->remove_in_flight();
    if (edges[i]) {
      edges[i]->add_visit(v);
      edges[i]->remove_in_flight();
    }
    v = -v;
  }
  ++playouts_;
  note_seldepth(length - 1);
}

void Search::revert_graph(GraphNode* const* nodes, GraphEdge* const* edges, int length) {
  for (int i = 0; i < length; ++i) {
    nodes[i]->remove_in_flight();
    if (edges[i]) edges[i]->remove_in_flight();
  }
}

Search::Pick Search::pick_leaf_graph(Worker& w, Batch& b) {
  if (groot_->proof() != Proof::kNone || !groot_->expanded()) return Pick::kStop;
  w.graph_nodes.clear();
  w.graph_edges.clear();
  w.path_keys.clear();
  w.pos = root_pos_;
  // A network of input format 2.0 also sees the moves that led here: those of the path that
  // reaches the node first (a node shares one evaluation between its paths).
  w.last_moves = last_moves_of(game_.moves());
  GraphNode* node = groot_;
  node->add_in_flight();
  w.graph_nodes.push_back(node);
  w.graph_edges.push_back(nullptr);
  // The playout ends at `edge` (from `node`) with `value` for the side that plays it: the
  // edge takes the visit, the path the value.
  auto end_at_edge = [&](GraphEdge* edge, float value) {
    edge->add_visit(value);
    backup_graph(w.graph_nodes.data(), w.graph_edges.data(), int(w.graph_nodes.size()), value);
    return Pick::kDone;
  };
  for (;;) {
    if (!node->expanded()) {
      // One playout evaluates a node: any other that reaches it before its block is there,
      // through this path or another, is a collision.
      if (!node->claim_expansion()) {
        revert_graph(w.graph_nodes.data(), w.graph_edges.data(), int(w.graph_nodes.size()));
        return Pick::kCollision;
      }
      b.push_leaf({int(b.graph_nodes.size()), int(w.graph_nodes.size()), int(b.keys.size()),
                   int(w.path_keys.size()), node->key()},
                  w.pos, w.last_moves);
      b.graph_nodes.insert(b.graph_nodes.end(), w.graph_nodes.begin(), w.graph_nodes.end());
      b.graph_edges.insert(b.graph_edges.end(), w.graph_edges.begin(), w.graph_edges.end());
      b.keys.insert(b.keys.end(), w.path_keys.begin(), w.path_keys.end());
      ++pending_;
      return Pick::kEvaluate;
    }
    GraphEdge* edge;
    GraphEdge* prev;
    const int idx = select_child(node, &edge, &prev);
    if (idx < 0) {  // cannot happen for an expanded, unproven node; be safe
      revert_graph(w.graph_nodes.data(), w.graph_edges.data(), int(w.graph_nodes.size()));
      return Pick::kCollision;
    }
    const Move move = node->block()->edges()[idx].get_move();
    w.pos.do_move(move);
    w.last_moves = {move, w.last_moves[0]};
    if (!edge) edge = graph_edge(node, idx);
    // A repetition of this path or of the game is a draw for this playout: the shared node,
    // whose value and proof were learnt on other paths, is not consulted.
    if (is_repetition(w.path_keys, w.pos)) {
      edge->set_repeated();
      return end_at_edge(edge, 0.0f);
    }
    GraphNode* child = graph_child(node, edge, w.pos);
    if (child->proof() != Proof::kNone) {  // exact: no need to look further
      const Pick done = end_at_edge(edge, -child->proof_value());
      if (params_.mcts_solver)
        for (int i = int(w.graph_nodes.size()) - 1; i >= 0 && try_prove(w.graph_nodes[i]); --i) {
        }
      return done;
    }
    // Expanded by another thread that has not backed its value up yet: pending, as a node
    // still at the evaluator (one thread never sees this, its expansion and backup go together).
    if (child->expanded() && child->visits() == 0) {
      revert_graph(w.graph_nodes.data(), w.graph_edges.data(), int(w.graph_nodes.size()));
      return Pick::kCollision;
    }
    // A node searched through other edges: its value, not the edge's, is what this move is
    // worth. Bring the edge to it first; descend once they agree.
    if (child->expanded() &&
        (edge->visits() == 0 || std::fabs(child->q() - edge->q()) > kTranspositionQDiff))
      return end_at_edge(edge, correction_target(edge, child));
    w.path_keys.push_back(w.pos.key());
    edge->add_in_flight();
    child->add_in_flight();
    w.graph_nodes.push_back(child);
    w.graph_edges.push_back(edge);
    node = child;
  }
}

// The block goes in last: a thread that sees it sees the node's first edge and proof. Until
// then no thread adds an edge to the node (selection only adds to expanded nodes, the prover
// only to the root).
void Search::expand_graph(GraphNode* node, EvalBlock* block, const Position& pos) {
  node->claim_expansion();  // the root's is not claimed by a playout
  ++expanded_nodes_;
  if (block->num_edges == 0) {
    make_terminal(node, block->value < 0 ? Proof::kLoss : Proof::kDraw);
  } else if (block->mate_plies > 0) {
    // As the tree: the mating move's node exists from the start, a proven loss for the side
    // it leaves to move. A mate that used the path's repetitions never gets here (only a mate
    // that holds whatever the path is may be stored on a shared node).
    auto* edge = new GraphEdge(std::uint16_t(block->mate_edge));
    ++graph_edges_;
    Position after = pos;
    after.do_move(block->edges()[block->mate_edge].get_move());
    GraphNode* child = acquire_graph_node(eval_key(after, 0));
    edge->set_child(child);
    if (child->proof() == Proof::kNone) {
      if (block->mate_plies == 1)
        make_terminal(child, Proof::kLoss);
      else
        child->set_proof(Proof::kLoss, block->mate_plies - 1);
    }
    node->link_child(nullptr, edge);
    if (params_.mcts_solver) node->set_proof(Proof::kWin, block->mate_plies);
  }
  node->set_block(block);
}

void Search::integrate_graph(Batch& b, int i) {
  const Leaf& leaf = b.leaves[i];
  GraphNode* const* nodes = b.graph_nodes.data() + leaf.path_begin;
  GraphEdge* const* edges = b.graph_edges.data() + leaf.path_begin;
  GraphNode* node = nodes[leaf.path_length - 1];
  EvalBlock* block = b.blocks[i];
  b.blocks[i] = nullptr;
  --pending_;
  if (block->evaluated) ++evaluations_;
  block_bytes_ += block->bytes();
  expand_graph(node, block, b.inputs[i].position);
  const bool proven = node->proof() != Proof::kNone;
  if (proven && params_.mcts_solver)
    for (int k = leaf.path_length - 2; k >= 0 && try_prove(nodes[k]); --k) {
    }
  backup_graph(nodes, edges, leaf.path_length, proven ? node->proof_value() : block->value);
}

void Search::expand_root_graph(EvalBlock* block) {
  expand_graph(groot_, block, root_pos_);
  groot_->add_visit(-(groot_->proof() != Proof::kNone ? groot_->proof_value() : block->value));
  ++playouts_;
}

void Search::apply_root_noise_graph(EvalBlock* noisy, const std::vector<int>& new_index) {
  std::vector<GraphEdge*> edges;
  for (GraphEdge* e = groot_->first_child(); e; e = e->next_sibling()) edges.push_back(e);
  for (GraphEdge* e : edges) e->set_edge_index(std::uint16_t(new_index[e->edge_index()]));
  std::sort(edges.begin(), edges.end(),
            [](GraphEdge* a, GraphEdge* c) { return a->edge_index() < c->edge_index(); });
  groot_->set_first_child(edges.empty() ? nullptr : edges[0]);
  for (std::size_t i = 0; i < edges.size(); ++i)
    edges[i]->set_next_sibling(i + 1 < edges.size() ? edges[i + 1] : nullptr);
  block_bytes_ -= groot_->release_block();
  block_bytes_ += noisy->bytes();
  groot_->set_block(noisy);
}

// Follows the moves the game added since the last search down the graph. Returns the node
// reached (with the root's reference), or nullptr; the old root's reference goes, and with it
// every node no longer reachable, a little per batch.
GraphNode* Search::reuse_graph_locked(const Game& game) {
  GraphNode* node = groot_;
  const auto& new_moves = game.moves();
  for (std::size_t i = game_.moves().size(); i < new_moves.size() && node; ++i) {
    GraphNode* next = nullptr;
    const int e = node->expanded() ? node->block()->edge_of(new_moves[i]) : -1;
    if (const GraphEdge* edge = e < 0 ? nullptr : node->find_child(std::uint16_t(e)))
      next = edge->child();
    node = next;
  }
  if (node) node->retain();
  release_graph_node(groot_);
  groot_ = nullptr;
  if (!node) return nullptr;
  auto drop = [&] {
    release_graph_node(node);
    return nullptr;
  };
  if (node->terminal() && !node->expanded()) return drop();
  if (node->expanded() && !block_matches_position(*node->block(), game.position())) {
    std::ostringstream note;
    note << "the kept search graph does not match the position " << game.position().fen()
         << "; searching afresh";
    notes_.push_back(note.str());
    return drop();
  }
  if (node->expanded() && !node->block()->evaluated) return drop();
  // As the tree's root: proven again from its moves (nothing else reaches this ply now).
  if (!node->terminal()) node->set_proof(Proof::kNone, 0);
  return node;
}

void Search::mark_root_repetitions_graph() {
  // The root's moves into a position of the game are draws, exactly (no other path reaches
  // the nodes of that ply); the marks that other paths left are theirs.
  if (!groot_->expanded()) return;
  const std::vector<std::uint64_t> no_path;
  for (GraphEdge* e = groot_->first_child(); e; e = e->next_sibling()) {
    Position after = root_pos_;
    after.do_move(groot_->block()->edges()[e->edge_index()].get_move());
    e->set_repeated(is_repetition(no_path, after));
  }
}

TreeAudit Search::audit_graph() const {
  TreeAudit a;
  a.pending = pending_;
  std::unordered_map<const GraphNode*, std::int64_t> incoming;  // edges (and root) into each
  std::unordered_set<const GraphNode*> seen;
  // Walks what `from` reaches and was not seen yet; only the root's part is the live graph,
  // the garbage's still holds references.
  auto walk = [&](std::vector<const GraphNode*> stack, bool live) {
    while (!stack.empty()) {
      const GraphNode* n = stack.back();
      stack.pop_back();
      if (live) {
        ++a.nodes;
        a.in_flight += n->in_flight();
      }
      std::uint64_t below = 0;
      for (const GraphEdge* e = n->first_child(); e; e = e->next_sibling()) {
        if (live) {
          ++a.edges;
          a.in_flight += e->in_flight();
        }
        below += e->visits();
        const GraphNode* c = e->child();
        if (!c) continue;
        ++incoming[c];
        if (seen.insert(c).second) stack.push_back(c);
      }
      if (live && n->expanded() && n->proof() == Proof::kNone && n->visits() != below + 1)
        ++a.visit_mismatches;
    }
  };
  if (groot_) {
    incoming[groot_] += 1;
    seen.insert(groot_);
    walk({groot_}, true);
  }
  std::vector<const GraphNode*> garbage;
  for (const GraphNode* g : graph_garbage_) {
    incoming.emplace(g, 0);
    if (seen.insert(g).second) garbage.push_back(g);
  }
  walk(garbage, false);
  for (const auto& [n, count] : incoming) {
    if (std::int64_t(n->refs()) != count) ++a.ref_mismatches;
    if (count > 1 && n != groot_) ++a.shared;
  }
  for (const GraphNode* n : table_.all())
    if (!seen.count(n)) ++a.unreachable;
  return a;
}

Proof Search::root_proof_locked() const {
  if (graph_) return groot_ ? groot_->proof() : Proof::kNone;
  return root_ ? root_->proof() : Proof::kNone;
}

bool Search::root_expanded_locked() const {
  if (graph_) return groot_ && groot_->expanded();
  return root_ && root_->expanded();
}

// The node a root move leads to, with its edge made if need be. Only the root's moves reach a
// node of that ply, so the prover's proofs (which know the game's repetitions) may go there.
GraphNode* Search::root_child_graph_locked(Move move) {
  const int idx = groot_->block()->edge_of(move);
  if (idx < 0) return nullptr;
  GraphEdge* edge = graph_edge(groot_, idx);
  Position after = root_pos_;
  after.do_move(move);
  if (is_repetition({}, after)) edge->set_repeated();
  if (edge->repeated()) return nullptr;  // a draw the prover's proof cannot change
  return graph_child(groot_, edge, after);
}

}  // namespace zh
