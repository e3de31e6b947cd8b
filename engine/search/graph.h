#pragma once
// The Monte-Carlo graph (search.graph): one GraphNode per position, shared by every move order
// that reaches it, and one GraphEdge per move tried from it, holding that move's own visits
// and Q. docs/search-formulas.md ("The graph") gives the rules; the search drives them.
//  - A node is keyed by eval_key(): the zobrist key (board, both pockets, promoted pieces,
//    side, castling, en passant) and the counters of the network's input planes (move number,
//    no-progress counter). The move number fixes a node's ply, so every path from the root to
//    a node has the same length and the graph has no cycle: a repetition is a different node.
//  - The table owns the nodes; each edge that points at a node, and the root, hold a
//    reference. A node whose last reference goes is taken out of the table and freed (its edges
//    drop their references in turn), a little per batch as the tree's garbage is.
//  - Like the tree, all of it is guarded by the search's tree mutex. The counters are plain
//    integers, but each sits in its own field of one node or one edge, so making them atomics
//    (and the table a sharded or lock-free map) is a change of types, not of layout.

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "engine/search/node.h"

namespace zh {

class GraphNode;

// A move tried from a node: its statistics, and the node it leads to (none until a playout
// needed it). Same accessors as a tree Node seen from its parent, so selection and the solver
// serve both.
class GraphEdge {
 public:
  explicit GraphEdge(std::uint16_t edge_index) : edge_index_(edge_index) {}
  GraphEdge(const GraphEdge&) = delete;
  GraphEdge& operator=(const GraphEdge&) = delete;

  // Q is for the side to move at the parent (the player who plays the move), as a tree node's.
  std::uint32_t visits() const { return n_; }
  float q() const { return q_; }
  std::uint32_t in_flight() const { return in_flight_; }
  void add_in_flight() { ++in_flight_; }
  void remove_in_flight() { --in_flight_; }
  void add_visit(float value_for_mover) {
    ++n_;
    q_ += (value_for_mover - q_) / float(n_);
  }
  std::uint16_t edge_index() const { return edge_index_; }
  void set_edge_index(std::uint16_t i) { edge_index_ = i; }
  GraphEdge* next_sibling() const { return next_; }
  void set_next_sibling(GraphEdge* e) { next_ = e; }
  GraphNode* child() const { return child_; }
  void set_child(GraphNode* c) { child_ = c; }  // the caller takes the node's reference

  // A playout scored this move as a repetition (a draw) on some path: the move's proof then
  // depends on the path, and the solver does not count it (see effective proof below).
  bool repeated() const { return repeated_; }
  void set_repeated(bool repeated = true) { repeated_ = repeated; }
  // The proof the solver and selection see: the child node's, unless the move repeated.
  inline Proof proof() const;
  inline int proof_plies() const;

 private:
  GraphNode* child_ = nullptr;
  GraphEdge* next_ = nullptr;
  float q_ = 0;
  std::uint32_t n_ = 0;
  std::uint32_t in_flight_ = 0;
  std::uint16_t edge_index_;
  bool repeated_ = false;
};

class GraphNode {
 public:
  explicit GraphNode(std::uint64_t key) : key_(key) {}
  ~GraphNode() { release_block(); }  // edges are freed by the search (free_graph_node)
  GraphNode(const GraphNode&) = delete;
  GraphNode& operator=(const GraphNode&) = delete;

  std::uint64_t key() const { return key_; }
  // --- statistics of every playout that passed through the node, from any parent; q is for
  // the player who moved into it (the same side for every parent) ---
  std::uint32_t visits() const { return n_; }
  float q() const { return q_; }
  std::uint32_t in_flight() const { return in_flight_; }
  void add_in_flight() { ++in_flight_; }
  void remove_in_flight() { --in_flight_; }
  void add_visit(float value_for_mover) {
    ++n_;
    q_ += (value_for_mover - q_) / float(n_);
  }
  // --- references: the edges that point here, and the root ---
  std::uint32_t refs() const { return refs_; }
  void retain() { ++refs_; }
  bool release() { return --refs_ == 0; }  // true: the last one went
  // --- expansion, proofs: as Node's ---
  bool expanded() const { return block_ != nullptr; }
  EvalBlock* block() const { return block_; }
  void set_block(EvalBlock* b) { block_ = b; }
  std::size_t release_block() {
    std::size_t freed = block_ ? block_->release() : 0;
    block_ = nullptr;
    return freed;
  }
  int num_edges() const { return block_ ? block_->num_edges : 0; }
  Proof proof() const { return proof_; }
  int proof_plies() const { return proof_plies_; }
  void set_proof(Proof p, int plies) {
    proof_ = p;
    proof_plies_ = std::uint16_t(plies);
  }
  bool terminal() const { return terminal_; }
  void set_terminal() { terminal_ = true; }
  float proof_value() const {
    return proof_ == Proof::kWin ? 1.0f : proof_ == Proof::kLoss ? -1.0f : 0.0f;
  }
  // --- edges tried, sorted by edge index ---
  GraphEdge* first_child() const { return first_; }
  void set_first_child(GraphEdge* e) { first_ = e; }
  GraphEdge* find_child(std::uint16_t edge_index) const;
  void link_child(GraphEdge* prev, GraphEdge* edge);

 private:
  std::uint64_t key_;
  EvalBlock* block_ = nullptr;
  GraphEdge* first_ = nullptr;
  float q_ = 0;
  std::uint32_t n_ = 0;
  std::uint32_t in_flight_ = 0;
  std::uint32_t refs_ = 0;
  std::uint16_t proof_plies_ = 0;
  Proof proof_ = Proof::kNone;
  bool terminal_ = false;
};

Proof GraphEdge::proof() const { return repeated_ || !child_ ? Proof::kNone : child_->proof(); }
int GraphEdge::proof_plies() const { return repeated_ || !child_ ? 0 : child_->proof_plies(); }

// The nodes by key. Owns them; the search frees them through take() once unreferenced.
class GraphTable {
 public:
  GraphTable() = default;
  GraphTable(const GraphTable&) = delete;
  GraphTable& operator=(const GraphTable&) = delete;
  GraphNode* find(std::uint64_t key) const {
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : it->second;
  }
  // A new node for `key` (which must not be present), with no reference yet.
  GraphNode* create(std::uint64_t key);
  // Takes the node out of the table (if it is the one there: a root may stand outside it);
  // the caller frees it.
  void take(GraphNode* node) {
    auto it = map_.find(node->key());
    if (it != map_.end() && it->second == node) map_.erase(it);
  }
  std::size_t size() const { return map_.size(); }
  // Every node still in the table, for clearing the whole graph.
  std::vector<GraphNode*> all() const;
  void forget_all() { map_.clear(); }
  // Bytes of the table's own bookkeeping (the nodes and edges are counted by the search).
  std::size_t bytes() const { return map_.size() * kEntryBytes + map_.bucket_count() * 8; }

 private:
  static constexpr std::size_t kEntryBytes = 24;  // as EvalCache's: next, key, pointer
  std::unordered_map<std::uint64_t, GraphNode*> map_;
};

}  // namespace zh
