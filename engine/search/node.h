#pragma once
// The compact search tree. Memory is the budget that matters (crazyhouse middlegames have
// ~100 legal moves per node), so:
//  - a node's legal moves and priors live in an EvalBlock (2-byte move + 2-byte half prior
//    per move), created once per network evaluation and shared by every node of the same
//    position through the transposition table (paper 9.2.5);
//  - child nodes exist only for moves that were visited, kept in a singly linked list in
//    edge order, so an unvisited move costs 4 bytes;
//  - edges are sorted by prior, so the best unvisited move is always the first unvisited one.
// All tree state is guarded by the search's tree mutex; nothing here is atomic.

#include <cstddef>
#include <cstdint>
#include <new>

#include "engine/chess/move.h"
#include "engine/search/half.h"

namespace zh {

struct Edge {
  std::uint16_t move;   // Move::raw()
  std::uint16_t prior;  // binary16
  Move get_move() const { return Move::from_raw(move); }
  float get_prior() const { return half_to_float(prior); }
};

// One network evaluation with its legal moves, refcounted by the nodes (and the cache entry)
// that point to it.
class EvalBlock {
 public:
  static EvalBlock* create(int num_edges);  // uninitialised edges
  void retain() { ++refs_; }
  // Drops one reference; returns the bytes freed (0 while others still hold it).
  std::size_t release() {
    if (--refs_ != 0) return 0;
    const std::size_t b = bytes();
    destroy();
    return b;
  }
  std::uint32_t refs() const { return refs_; }
  EvalBlock* clone() const;  // a private copy (root noise), refcount 1

  float value = 0;              // network value for the side to move
  std::int16_t mate_edge = -1;  // the first move of a proven mate, -1 if none known
  std::uint16_t num_edges = 0;
  std::uint8_t mate_plies = 0;  // that mate's length in plies (1 = mate in one), 0 if none
  // False for a block made from a mate proof alone (no network call): uniform priors and no
  // value worth searching with, so a search never starts from it (see make_proven_block).
  bool evaluated = true;
  Edge* edges() { return reinterpret_cast<Edge*>(this + 1); }
  const Edge* edges() const { return reinterpret_cast<const Edge*>(this + 1); }
  // The index of `move` among the edges, or -1 when it is not one of them.
  int edge_of(Move move) const {
    for (int e = 0; e < num_edges; ++e)
      if (edges()[e].move == move.raw()) return e;
    return -1;
  }
  std::size_t bytes() const { return bytes_for(num_edges); }
  static std::size_t bytes_for(int n) { return sizeof(EvalBlock) + std::size_t(n) * sizeof(Edge); }

 private:
  EvalBlock() = default;
  void destroy();
  std::uint32_t refs_ = 1;
};
static_assert(sizeof(EvalBlock) % alignof(Edge) == 0);

// Proven game-theoretic result from the point of view of the side to move at the node.
enum class Proof : std::uint8_t { kNone, kWin, kLoss, kDraw };

class Node {
 public:
  explicit Node(std::uint16_t edge_index) : edge_index_(edge_index) {}
  ~Node();  // releases the block; children are freed by delete_subtree (iteratively)
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // --- statistics; q is the mean value for the player who moved INTO this node ---
  std::uint32_t visits() const { return n_; }
  float q() const { return q_; }
  std::uint32_t in_flight() const { return in_flight_; }
  void add_in_flight() { ++in_flight_; }
  void remove_in_flight() { --in_flight_; }
  void add_visit(float value_for_mover) {
    ++n_;
    q_ += (value_for_mover - q_) / float(n_);
  }

  // --- expansion ---
  bool expanded() const { return block_ != nullptr; }
  EvalBlock* block() const { return block_; }
  void set_block(EvalBlock* b) { block_ = b; }  // takes one reference
  // Drops the node's reference; returns the bytes freed.
  std::size_t release_block() {
    std::size_t freed = block_ ? block_->release() : 0;
    block_ = nullptr;
    return freed;
  }
  int num_edges() const { return block_ ? block_->num_edges : 0; }
  std::uint16_t edge_index() const { return edge_index_; }
  void set_edge_index(std::uint16_t i) { edge_index_ = i; }

  // --- proofs (terminal positions and the MCTS solver) ---
  Proof proof() const { return proof_; }
  int proof_plies() const { return proof_plies_; }
  void set_proof(Proof p, int plies) {
    proof_ = p;
    proof_plies_ = std::uint16_t(plies);
  }
  bool terminal() const { return terminal_; }  // no move can be played from here
  void set_terminal() { terminal_ = true; }
  // Exact value for the side to move at a proven node.
  float proof_value() const {
    return proof_ == Proof::kWin ? 1.0f : proof_ == Proof::kLoss ? -1.0f : 0.0f;
  }

  // --- children (sorted by edge index) ---
  Node* first_child() const { return first_child_; }
  Node* next_sibling() const { return next_sibling_; }
  void set_first_child(Node* c) { first_child_ = c; }
  void set_next_sibling(Node* s) { next_sibling_ = s; }
  Node* find_child(std::uint16_t edge_index) const;
  // Links a new child for `edge_index`, after `prev` (nullptr = at the head).
  void link_child(Node* prev, Node* child);
  // Removes and returns the child for `edge_index` (nullptr if none).
  Node* unlink_child(std::uint16_t edge_index);

 private:
  EvalBlock* block_ = nullptr;
  Node* first_child_ = nullptr;
  Node* next_sibling_ = nullptr;
  float q_ = 0;
  std::uint32_t n_ = 0;
  std::uint32_t in_flight_ = 0;
  std::uint16_t edge_index_;
  std::uint16_t proof_plies_ = 0;
  Proof proof_ = Proof::kNone;
  bool terminal_ = false;
};

struct FreedMemory {
  std::size_t nodes = 0;
  std::size_t expanded = 0;
  std::size_t block_bytes = 0;
};
// Frees a subtree without recursion (trees can be deep and large).
FreedMemory delete_subtree(Node* root);

}  // namespace zh
