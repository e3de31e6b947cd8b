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
//  - Search threads share it without the search's mutex (docs/search-formulas.md, "Threads"):
//    every counter is an atomic of its own; a node's or an edge's visits and Q sit in one
//    64-bit word updated by compare-exchange, so a reader sees a pair that belonged together
//    and one thread's arithmetic is the plain running mean's. Edges are only ever added (under
//    the parent's lock, Search::graph_lock), published by release stores, so a thread walks a
//    node's edges without a lock. A node's block is published once, after its edges; the
//    thread that evaluates a node claims it first (claim_expansion), every other one treats it
//    as pending. The table is sharded, one mutex a shard, and a node's references move under
//    its shard's lock, so a node found there can never be one whose last reference just went.

#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "engine/search/node.h"

namespace zh {

class GraphNode;

// Visits and their mean value in one atomic word (visits in the low half, the float's bits in
// the high half): add() is the running mean's update, done by compare-exchange, so concurrent
// backups never lose one and a reader's N and Q belong together.
class VisitStats {
 public:
  std::uint32_t visits() const { return std::uint32_t(word_.load(std::memory_order_relaxed)); }
  float q() const { return q_of(word_.load(std::memory_order_relaxed)); }
  void add(float value) {
    std::uint64_t old = word_.load(std::memory_order_relaxed);
    for (;;) {
      const std::uint32_t n = std::uint32_t(old) + 1;
      const float q = q_of(old) + (value - q_of(old)) / float(n);
      const std::uint64_t next = std::uint64_t(std::bit_cast<std::uint32_t>(q)) << 32 | n;
      if (word_.compare_exchange_weak(old, next, std::memory_order_relaxed)) return;
    }
  }

 private:
  static float q_of(std::uint64_t w) { return std::bit_cast<float>(std::uint32_t(w >> 32)); }
  std::atomic<std::uint64_t> word_{0};  // 0: no visit, Q 0
};

// What a playout leaves on a node or an edge: its visit with the value it backed up, and while
// it is on its way to the evaluator, a visit in flight (virtual loss or visit).
class PlayoutCounters {
 public:
  std::uint32_t visits() const { return stats_.visits(); }
  float q() const { return stats_.q(); }
  std::uint32_t in_flight() const { return in_flight_.load(std::memory_order_relaxed); }
  void add_in_flight() { in_flight_.fetch_add(1, std::memory_order_relaxed); }
  void remove_in_flight() { in_flight_.fetch_sub(1, std::memory_order_relaxed); }
  void add_visit(float value_for_mover) { stats_.add(value_for_mover); }

 private:
  VisitStats stats_;
  std::atomic<std::uint32_t> in_flight_{0};
};

// A node's proof, its distance and whether it is terminal, in one atomic word: the solver on
// one thread and a proof found on another replace it whole.
class ProofWord {
 public:
  Proof proof() const { return Proof(load() & 0xff); }
  int plies() const { return int(load() >> 8 & 0xffff); }
  bool terminal() const { return (load() >> 24) != 0; }
  void set(Proof p, int plies) {
    std::uint32_t old = word_.load(std::memory_order_relaxed);
    std::uint32_t next;
    do {
      next = (old & 0xff000000u) | std::uint32_t(std::uint16_t(plies)) << 8 | std::uint32_t(p);
    } while (!word_.compare_exchange_weak(old, next, std::memory_order_release,
                                          std::memory_order_relaxed));
  }
  void set_terminal() { word_.fetch_or(1u << 24, std::memory_order_release); }

 private:
  std::uint32_t load() const { return word_.load(std::memory_order_acquire); }
  std::atomic<std::uint32_t> word_{0};  // Proof::kNone, 0 plies, not terminal
};

// A move tried from a node: its statistics, and the node it leads to (none until a playout
// needed it). Same accessors as a tree Node seen from its parent, so selection and the solver
// serve both.
class GraphEdge : public PlayoutCounters {
 public:
  explicit GraphEdge(std::uint16_t edge_index) : edge_index_(edge_index) {}
  GraphEdge(const GraphEdge&) = delete;
  GraphEdge& operator=(const GraphEdge&) = delete;

  // Its counters (PlayoutCounters): Q is for the side to move at the parent (the player who
  // plays the move), as a tree node's.
  // Changes only while no other thread sees the edge (the root's noise, between searches).
  std::uint16_t edge_index() const { return edge_index_; }
  void set_edge_index(std::uint16_t i) { edge_index_ = i; }
  GraphEdge* next_sibling() const { return next_.load(std::memory_order_acquire); }
  void set_next_sibling(GraphEdge* e) { next_.store(e, std::memory_order_release); }
  GraphNode* child() const { return child_.load(std::memory_order_acquire); }
  // Set once, under the parent's lock; the caller takes the node's reference.
  void set_child(GraphNode* c) { child_.store(c, std::memory_order_release); }

  // A playout scored this move as a repetition (a draw) on some path: the move's proof then
  // depends on the path, and the solver does not count it (see effective proof below).
  bool repeated() const { return repeated_.load(std::memory_order_relaxed); }
  void set_repeated(bool repeated = true) { repeated_.store(repeated, std::memory_order_relaxed); }
  // The proof the solver and selection see: the child node's, unless the move repeated.
  inline Proof proof() const;
  inline int proof_plies() const;

 private:
  // The small members first: they fill the counters' tail padding (32 bytes in all).
  std::uint16_t edge_index_;
  std::atomic<bool> repeated_{false};
  std::atomic<GraphNode*> child_{nullptr};
  std::atomic<GraphEdge*> next_{nullptr};
};

class GraphNode : public PlayoutCounters {
 public:
  explicit GraphNode(std::uint64_t key) : key_(key) {}
  ~GraphNode() { release_block(); }  // edges are freed by the search (delete_graph_node_locked)
  GraphNode(const GraphNode&) = delete;
  GraphNode& operator=(const GraphNode&) = delete;

  std::uint64_t key() const { return key_; }
  // Its counters (PlayoutCounters) count every playout that passed through the node, from any
  // parent; Q is for the player who moved into it (the same side for every parent).
  // --- references: the edges that point here, and the root; moved under the node's table
  // shard lock (GraphTable), or while no search runs ---
  std::uint32_t refs() const { return refs_.load(std::memory_order_relaxed); }
  void retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
  bool release() { return refs_.fetch_sub(1, std::memory_order_acq_rel) == 1; }  // last one
  // --- expansion: one thread claims the evaluation, then publishes the block (after the
  // node's first edges and proof); proofs as Node's ---
  bool claim_expansion() {
    bool expected = false;
    return claimed_.compare_exchange_strong(expected, true, std::memory_order_relaxed);
  }
  void unclaim_expansion() { claimed_.store(false, std::memory_order_relaxed); }
  bool expanded() const { return block() != nullptr; }
  EvalBlock* block() const { return block_.load(std::memory_order_acquire); }
  void set_block(EvalBlock* b) { block_.store(b, std::memory_order_release); }
  std::size_t release_block() {  // only while no other thread sees the node
    EvalBlock* b = block_.exchange(nullptr, std::memory_order_relaxed);
    return b ? b->release() : 0;
  }
  int num_edges() const {
    const EvalBlock* b = block();
    return b ? b->num_edges : 0;
  }
  Proof proof() const { return proof_.proof(); }
  int proof_plies() const { return proof_.plies(); }
  void set_proof(Proof p, int plies) { proof_.set(p, plies); }
  bool terminal() const { return proof_.terminal(); }
  void set_terminal() { proof_.set_terminal(); }
  float proof_value() const {
    const Proof p = proof();
    return p == Proof::kWin ? 1.0f : p == Proof::kLoss ? -1.0f : 0.0f;
  }
  // --- edges tried, sorted by edge index; added under the node's lock (Search::graph_lock),
  // read without one ---
  GraphEdge* first_child() const { return first_.load(std::memory_order_acquire); }
  void set_first_child(GraphEdge* e) { first_.store(e, std::memory_order_release); }
  GraphEdge* find_child(std::uint16_t edge_index) const;
  // Links `edge` after `prev` (nullptr: at the head). The edge's next pointer is set before
  // it is published, so a thread walking the list never sees a half-linked edge.
  void link_child(GraphEdge* prev, GraphEdge* edge);

 private:
  std::atomic<std::uint32_t> refs_{0};  // first: it fills the counters' tail padding
  std::uint64_t key_;
  std::atomic<EvalBlock*> block_{nullptr};
  std::atomic<GraphEdge*> first_{nullptr};
  ProofWord proof_;
  std::atomic<bool> claimed_{false};
};

Proof GraphEdge::proof() const {
  const GraphNode* c = child();
  return repeated() || !c ? Proof::kNone : c->proof();
}
int GraphEdge::proof_plies() const {
  const GraphNode* c = child();
  return repeated() || !c ? 0 : c->proof_plies();
}

// The nodes by key, in shards of one mutex each. Owns them; the search frees them once
// unreferenced. A node's references move under its shard's lock (acquire, drop), so looking a
// node up and dropping its last reference never cross.
class GraphTable {
 public:
  GraphTable() { forget_all(); }
  GraphTable(const GraphTable&) = delete;
  GraphTable& operator=(const GraphTable&) = delete;
  GraphNode* find(std::uint64_t key) const;
  // The node for `key` with one more reference, made if there is none; `*made` says which.
  GraphNode* acquire(std::uint64_t key, bool* made);
  // Drops one reference of `node`; at the last, takes it out of the table (if it is the one
  // there: a root may stand outside it) and returns true: the caller frees it.
  bool drop(GraphNode* node);
  std::size_t size() const { return size_.load(std::memory_order_relaxed); }
  // Every node still in the table, for clearing the whole graph (no search running).
  std::vector<GraphNode*> all() const;
  void forget_all();
  // Bytes of the table's own bookkeeping (the nodes and edges are counted by the search).
  std::size_t bytes() const {
    return size() * kEntryBytes + buckets_.load(std::memory_order_relaxed) * 8;
  }

 private:
  static constexpr std::size_t kEntryBytes = 24;  // as EvalCache's: next, key, pointer
  static constexpr std::size_t kShards = 64;
  struct Shard {
    mutable std::mutex mutex;
    std::unordered_map<std::uint64_t, GraphNode*> map;
  };
  Shard& shard(std::uint64_t key) { return shards_[(key * 0x9E3779B97F4A7C15ull) >> 58]; }
  const Shard& shard(std::uint64_t key) const {
    return shards_[(key * 0x9E3779B97F4A7C15ull) >> 58];
  }
  void count(const Shard& s, std::size_t buckets_before);
  std::array<Shard, kShards> shards_;
  std::atomic<std::size_t> size_{0};
  std::atomic<std::size_t> buckets_{0};
};

}  // namespace zh
