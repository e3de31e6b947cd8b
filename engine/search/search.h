#pragma once
// Monte-Carlo tree search as in the CrazyAra paper: PUCT selection (eqs. 3, 10, 11), Q init
// -1, virtual loss, several worker threads that each collect a mini-batch of leaves for one
// shared evaluator, exact terminal values, an MCTS solver, transposition of network
// evaluations, tree reuse between moves; params.graph makes it a graph (graph.h).
//
// Repetitions: a position that already occurred in the game or earlier on the search path is
// scored as a draw (and is a proven draw for the solver). That is the usual engine practice:
// whoever can repeat can also keep repeating until lichess declares the draw (threefold is
// claimable, fivefold automatic), so a repetition is as good as a draw for both sides. The
// root itself is never terminal by repetition: the game goes on until lichess ends it.
//
// Threading: one mutex guards the tree. Workers select and back up under it and release it
// while the evaluator runs, so with a real network two threads keep it busy. The graph's
// workers select, expand and back up without it (graph.h, docs/search-formulas.md "Threads"):
// they take it only to free garbage, check the limits once one is reached, and wait. A worker may
// keep several mini-batches at the evaluator (params.batches_per_thread): it selects the next one,
// under virtual loss, while a device runs the last, and completes them in order; the time limit
// and info output belong to the caller (engine.cpp), which reads snapshot() when it wakes.
// The worker threads live as long as the Search: each start() wakes `threads` of them through
// a condition variable (the pool grows to the most ever asked for), join() waits until they
// are back to sleep. No thread is created or joined per move.
//
// Files: search.cpp selects, expands (with the leaf mate search) and backs up;
// search_workers.cpp is the worker pool and its batches; search_tree.cpp the tree's memory,
// reuse (set_game) and audit; search_prover.cpp the root prover's hooks; search_snapshot.cpp
// the reports; search_graph.cpp the graph's side of them; solver.h the solver.

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/chess/game.h"
#include "engine/nn/evaluator.h"
#include "engine/search/eval_cache.h"
#include "engine/search/graph.h"
#include "engine/search/move_choice.h"
#include "engine/search/node.h"
#include "engine/search/params.h"
#include "engine/search/root_prover.h"

namespace zh {

struct ExpansionOptions;

// Limits the workers enforce themselves; time is the caller's business.
struct NodeLimits {
  std::int64_t playouts = 0;  // playouts in this search (0 = none)
};

enum class StopReason { kNone, kRequested, kPlayouts, kSolved, kTreeNodes, kMemory, kError };
const char* to_string(StopReason r);

// The tree's (or graph's) bookkeeping between searches, for tests: what every finished search
// must leave.
struct TreeAudit {
  std::int64_t nodes = 0;
  std::int64_t edges = 0;      // graph only: the moves tried
  std::int64_t in_flight = 0;  // virtual loss still charged (sum over nodes, edges): must be 0
  // Expanded, unproven nodes whose visits are not one (their own evaluation) plus their
  // children's (the graph: their edges'): a backup lost or counted twice. Must be 0.
  std::int64_t visit_mismatches = 0;
  std::int64_t pending = 0;  // leaves still counted at the evaluator: must be 0
  // Graph only, must be 0: nodes whose reference count is not the number of edges (and the
  // root) that point at them, and nodes in the table that cannot be reached from the root
  // (memory the garbage collection lost).
  std::int64_t ref_mismatches = 0;
  std::int64_t unreachable = 0;
  std::int64_t shared = 0;  // graph only: nodes with more than one edge into them
};

// What the search holds at the end of a line of moves from the root, for tests.
struct LineStats {
  bool found = false;             // every move of the line was tried
  std::uint32_t edge_visits = 0;  // the last move's visits (the tree: its node's)
  float edge_q = 0;               // ...and Q, for the side that played it
  bool repeated = false;          // the graph: the last move was scored as a repetition
  const void* node = nullptr;     // the node reached (none yet: nullptr); transposed lines of
                                  // the graph reach the same one
  std::uint32_t node_visits = 0;
  Proof proof = Proof::kNone;  // the node's
};

struct SearchSnapshot {
  std::vector<RootChild> children;  // every legal root move, edge (prior) order
  std::vector<Move> pv;             // best move first
  int best = -1;                    // index into children chosen by eqs. (5)(7) + proofs
  std::uint32_t root_visits = 0;
  float root_q = 0;              // the root's value for the side to move (0: not evaluated)
  std::int64_t playouts = 0;     // this search
  std::int64_t evaluations = 0;  // network positions evaluated in this search
  int seldepth = 0;
  std::int64_t tree_nodes = 0;
  std::int64_t expanded_nodes = 0;
  std::size_t tree_bytes = 0;
  std::size_t memory_cap_bytes = 0;
  Proof root_proof = Proof::kNone;
  int root_proof_plies = 0;
  bool root_expanded = false;
  StopReason reason = StopReason::kNone;
  std::string error;
};

class Search {
 public:
  explicit Search(std::shared_ptr<Evaluator> evaluator);
  ~Search();
  Search(const Search&) = delete;
  Search& operator=(const Search&) = delete;

  // --- between searches (no search running) ---
  // Makes `game`'s current position the root, keeping the matching subtree when the new game
  // extends the old one (and params.reuse_tree). Returns the root visits kept. The subtrees
  // it lets go are only unlinked: the workers of the next searches free them a little per
  // batch (freeing a big tree takes long, and this call is on the bot's move path).
  // A kept root whose moves are not the new position's legal moves is dropped (the search
  // would otherwise answer with another position's move), with a note for the log.
  std::uint32_t set_game(const Game& game, const SearchParams& params);
  // What set_game() noticed and repaired since the last call, for the engine's log.
  std::vector<std::string> take_notes();
  void clear();  // forget the tree and the evaluation cache (new game)
  void set_evaluator(std::shared_ptr<Evaluator> evaluator);

  // --- one search ---
  // Expands the root (a blocking evaluation) and wakes params.threads workers.
  void start(const SearchParams& params, const NodeLimits& limits);
  void request_stop();  // workers finish their current batch and return
  // The same without the tree lock (the workers hold it most of the time), so any thread may
  // call it under its own locks. One that comes before start() resets the flag is lost: the
  // caller must still stop the search after start() returned.
  void signal_stop() { stop_.store(true, std::memory_order_release); }
  // Blocks until every worker of this search returned (after request_stop() or a limit).
  void join();
  // Worker threads alive (created once each, reused by every search); for tests.
  int worker_threads() const;
  // True once the workers stopped on their own (a limit, a proof, an error).
  bool finished() const { return finished_.load(std::memory_order_acquire); }
  // Waits up to `ms` for finished(); returns finished().
  bool wait_finished_for(int ms);
  // Called (on a worker, under the tree lock) when the workers stop on their own: a limit, a
  // proof, an error. It must only signal, never call back into the Search. Set between searches.
  void set_on_finished(std::function<void()> on_finished) { on_finished_ = std::move(on_finished); }
  SearchSnapshot snapshot() const;
  // Walks the whole tree (no search running): for tests.
  TreeAudit audit_tree() const;
  LineStats line_stats(const std::vector<Move>& moves) const;

  // Seeds noise and move sampling (0 = from std::random_device).
  void seed(std::uint64_t seed);
  std::mt19937_64& rng() { return rng_; }
  const Position& root_position() const { return root_pos_; }

 private:
  struct Worker;
  struct Batch;
  struct Leaf;
  enum class Pick { kEvaluate, kDone, kCollision, kStop };

  // search.cpp: selection, expansion, backup, the root's evaluation and noise.
  Pick pick_leaf(Worker& w, Batch& b);
  // The Q an unvisited child of `node` starts with: q_init, or relative to the node (fpu_relative).
  // N is Node (the tree) or GraphNode, C its children (Node or GraphEdge).
  template <class N>
  double first_play_value(const N* node) const;
  bool virtual_visit(std::uint32_t visits) const;
  template <class N, class C>
  int select_child(const N* node, C** child, C** prev) const;
  void backup(Node* const* path, int length, float value);
  void revert(Node* const* path, int length);
  void integrate(Batch& b, int leaf_index);
  void expand(Node* node, EvalBlock* block, const Position& pos, std::vector<Node*>* path);
  // The solver (solver.h) over a path whose leaf was just proven, when params.mcts_solver.
  void solve_upward(Node* const* path, int length);
  bool is_repetition(const std::vector<std::uint64_t>& path_keys, const Position& pos) const;
  void prove_leaves(Worker& w, Batch& b);
  void expand_root_locked(std::unique_lock<std::mutex>& lock);
  void apply_root_noise();
  // search_workers.cpp: the pool and the stop conditions.
  void pool_loop(int index, std::uint64_t seen_generation);
  void worker_loop(Worker& w);
  bool gather(Worker& w, Batch& b, int batch, bool may_wait);
  // Everything selectable is pending in other threads: waits a little (mutex_ held in `lock`)
  // for one of their backups, not counted meanwhile among the evaluator's producers.
  void wait_for_backup(std::unique_lock<std::mutex>& lock);
  void submit(Batch& b, bool async);
  void complete(Batch& b, const ExpansionOptions& exp_opts);
  void check_limits_locked();
  void finish_locked(StopReason reason);
  // search_tree.cpp: the tree's memory.
  void free_subtree(Node* n);
  void discard_locked(Node* n);
  void free_garbage_locked(std::size_t max_nodes);
  bool over_caps_locked() const;
  std::size_t bytes_locked() const;
  // search_prover.cpp: the root proof-number search (root_prover.h) and what it hands back,
  // under the tree lock.
  void start_prover_locked();
  void play_remembered_mate_locked();
  void enter_root_mate_locked(Move move, int plies);
  std::vector<Move> prover_candidates();
  void prover_mate_found(Move move, int plies);
  void prover_move_refuted(Move move, int plies);
  Node* root_child_locked(Move move);  // found or made
  // search_snapshot.cpp
  // Appends a mate search's line to a PV that ends in a node proven `win` (or lost) in `plies`
  // that the search never expanded.
  void append_mate_line(bool win, int plies, std::vector<Move>& pv) const;
  // search_graph.cpp: the graph's side of all of the above.
  Pick pick_leaf_graph(Worker& w, Batch& b);
  void backup_graph(GraphNode* const* nodes, GraphEdge* const* edges, int length, float value);
  void revert_graph(GraphNode* const* nodes, GraphEdge* const* edges, int length);
  void integrate_graph(Batch& b, int leaf_index);
  void expand_graph(GraphNode* node, EvalBlock* block, const Position& pos);
  bool gather_graph(Worker& w, Batch& b, int batch, bool may_wait);
  // Whether a limit is reached, from the atomics; then check_limits_locked() under the mutex.
  bool limit_reached() const;
  // The edge of `node` for its move `idx`, found or added (under graph_lock(node)).
  GraphEdge* graph_edge(GraphNode* node, int idx);
  // The node `edge` (from `parent`) leads to, found or made, with the edge's reference.
  GraphNode* graph_child(GraphNode* parent, GraphEdge* edge, const Position& after);
  GraphNode* acquire_graph_node(std::uint64_t key);  // found or made, with one reference more
  void release_graph_node(GraphNode* node);          // drops a reference; garbage at zero
  void note_seldepth(int depth);
  void free_graph_garbage_locked(std::size_t max_nodes);
  // Frees `n` and its edges; with `release_children`, drops the references they held.
  void delete_graph_node_locked(GraphNode* n, bool release_children);
  void clear_graph_locked();
  GraphNode* reuse_graph_locked(const Game& game);
  void mark_root_repetitions_graph();
  void use_structure_locked(bool graph);      // frees the other one when the option changed
  void free_all_locked();                     // the tree, the graph, the cache
  void make_root_locked();                    // a fresh root for root_pos_
  bool extends_game(const Game& game) const;  // whether `game` continues the last one
  std::uint32_t set_game_graph_locked(const Game& game);
  void expand_root_graph(EvalBlock* block);
  void apply_root_noise_graph(EvalBlock* noisy, const std::vector<int>& new_index);
  TreeAudit audit_graph() const;
  GraphNode* root_child_graph_locked(Move move);  // its node, found or made
  // The root's proof, whichever structure holds it.
  Proof root_proof_locked() const;
  bool root_expanded_locked() const;

  std::shared_ptr<Evaluator> evaluator_;
  // Guards the tree, the cache, the root, the garbage and the reports; the graph's
  // selection and backup run outside it (the counters below are atomics for them).
  mutable std::mutex mutex_;
  std::condition_variable backup_cv_;
  std::condition_variable finished_cv_;
  std::function<void()> on_finished_;

  Node* root_ = nullptr;
  Position root_pos_;
  Game game_;
  bool have_game_ = false;
  std::vector<std::uint64_t> history_keys_;  // the game's keys through the root
  // Unlinked subtrees not yet freed (their nodes still count in the totals below), and
  // whether the cache is pruned of unused evaluations once they are gone.
  std::vector<Node*> garbage_;
  bool prune_pending_ = false;
  EvalCache cache_;
  SearchParams params_{};
  NodeLimits limits_{};
  std::mt19937_64 rng_;

  std::atomic<std::int64_t> tree_nodes_{0};
  std::atomic<std::int64_t> expanded_nodes_{0};
  std::atomic<std::size_t> block_bytes_{0};
  std::atomic<std::int64_t> playouts_{0};
  std::atomic<std::int64_t> pending_{0};
  std::atomic<std::int64_t> evaluations_{0};
  std::atomic<int> seldepth_{0};
  // The graph's playouts, pending leaves and picks under way: a pick takes a slot first, so
  // threads that select without the mutex never overrun limits_.playouts together.
  std::atomic<std::int64_t> playout_slots_{0};
  StopReason reason_ = StopReason::kNone;
  std::string error_;
  std::vector<std::string> notes_;

  std::atomic<bool> stop_{false};
  std::atomic<bool> finished_{false};

  // The worker pool, guarded by mutex_: start() bumps generation_ and wakes the first
  // team_size_ threads through pool_cv_; each one that returns counts busy_ down and the
  // last wakes join() through idle_cv_.
  std::condition_variable pool_cv_;
  std::condition_variable idle_cv_;
  std::uint64_t generation_ = 0;
  int team_size_ = 0;
  int busy_ = 0;
  bool quit_ = false;
  std::vector<std::unique_ptr<Worker>> worker_state_;  // one per thread, reused

  // The graph (params.graph): its root, its nodes by key, the nodes whose last reference went
  // (freed a little per batch, as garbage_), and its counters. graph_ says which structure
  // holds the search now; a change of the option starts afresh.
  bool graph_ = false;
  GraphNode* groot_ = nullptr;
  GraphTable table_;
  std::vector<GraphNode*> graph_garbage_;
  std::atomic<std::int64_t> graph_edges_{0};
  // Locks for adding edges to a node and setting an edge's node, one per group of nodes (by
  // address): a lock a node would cost memory, and adding is rare next to reading.
  static constexpr std::size_t kGraphLocks = 256;
  std::array<std::mutex, kGraphLocks> graph_locks_;
  std::mutex& graph_lock(const GraphNode* node) {
    return graph_locks_[(std::uintptr_t(node) >> 6) % kGraphLocks];
  }
  std::vector<std::thread> threads_;
  std::unique_ptr<RootProver> prover_;  // made by the first search that uses it
};

}  // namespace zh
