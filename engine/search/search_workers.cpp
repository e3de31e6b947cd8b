// Search's worker pool: threads created once and woken per search (start, request_stop,
// join), each keeping its mini-batches moving through the evaluator (gather under the tree
// lock, submit outside it, complete back under it; the graph's gather and complete without
// it), and the stop conditions the workers check.
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>

#include "engine/search/search.h"
#include "engine/search/search_internal.h"

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

void Search::start(const SearchParams& params, const NodeLimits& limits) {
  join();
  std::unique_lock lock(mutex_);
  use_structure_locked(params.graph);
  if (graph_ ? !groot_ : !root_) {
    root_pos_ = game_.position();
    history_keys_ = game_.keys();
    make_root_locked();
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
  play_remembered_mate_locked();
  if (params_.dirichlet_noise && root_proof_locked() == Proof::kNone) apply_root_noise();
  check_limits_locked();
  if (finished_.load()) return;
  const int n = std::max(1, params_.threads);
  while (int(threads_.size()) < n) {  // the first search, or more threads than ever before
    const int index = int(threads_.size());
    worker_state_.push_back(std::make_unique<Worker>());
    threads_.emplace_back([this, index, seen = generation_] { pool_loop(index, seen); });
  }
  playout_slots_.store(playouts_ + pending_);
  team_size_ = n;
  busy_ = n;
  ++generation_;
  start_prover_locked();
  lock.unlock();
  pool_cv_.notify_all();
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

void Search::finish_locked(StopReason reason) {
  if (reason_ == StopReason::kNone) reason_ = reason;
  stop_.store(true, std::memory_order_release);
  finished_.store(true, std::memory_order_release);
  finished_cv_.notify_all();
  backup_cv_.notify_all();
  if (on_finished_) on_finished_();
}

void Search::check_limits_locked() {
  // The caps are for the live tree: garbage in the way of one is freed at once.
  if ((!garbage_.empty() || !graph_garbage_.empty()) && over_caps_locked()) {
    free_garbage_locked(SIZE_MAX);
    free_graph_garbage_locked(SIZE_MAX);
  }
  if (root_proof_locked() != Proof::kNone) {
    finish_locked(StopReason::kSolved);
  } else if (limits_.playouts > 0 && playouts_ >= limits_.playouts) {
    finish_locked(StopReason::kPlayouts);
  } else if (params_.max_tree_nodes > 0 && tree_nodes_ >= params_.max_tree_nodes) {
    finish_locked(StopReason::kTreeNodes);
  } else if (bytes_locked() >= std::size_t(params_.max_memory_mb) << 20) {
    finish_locked(StopReason::kMemory);
  }
}

bool Search::limit_reached() const {
  return root_proof_locked() != Proof::kNone ||
         (limits_.playouts > 0 && playouts_ >= limits_.playouts) ||
         (params_.max_tree_nodes > 0 && tree_nodes_ >= params_.max_tree_nodes) ||
         bytes_locked() >= std::size_t(params_.max_memory_mb) << 20;
}

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
  if (graph_) return gather_graph(w, b, batch, may_wait);
  b.clear();
  int terminals = 0;
  std::unique_lock lock(mutex_);
  int collisions = 0;
  while (int(b.leaves.size()) < batch && !stop_.load(std::memory_order_relaxed)) {
    if (limits_.playouts > 0 && playouts_ + pending_ >= limits_.playouts) break;
    const Pick r = graph_ ? pick_leaf_graph(w, b) : pick_leaf(w, b);
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
    if (may_wait && terminals == 0) wait_for_backup(lock);
  }
  return true;
}

// The thread cannot add to the evaluator's batch before a backup comes, and that backup may be
// of a batch that waits for company (InferenceService): so it stops being a producer meanwhile.
void Search::wait_for_backup(std::unique_lock<std::mutex>& lock) {
  evaluator_->producer_stopped();
  backup_cv_.wait_for(lock, std::chrono::milliseconds(1));
  evaluator_->producer_started();
}

// The graph's gather: the same loop without the mutex. A pick takes a playout slot first, so
// the threads together never pass limits_.playouts; the limits are checked under the mutex
// only once the atomics say one is reached (check_limits_locked's garbage freeing is for a
// cap reached, so it is covered).
bool Search::gather_graph(Worker& w, Batch& b, int batch, bool may_wait) {
  b.clear();
  const std::int64_t cap = limits_.playouts;
  int terminals = 0;
  int collisions = 0;
  while (int(b.leaves.size()) < batch && !stop_.load(std::memory_order_relaxed)) {
    if (cap > 0 && playout_slots_.fetch_add(1) >= cap) {
      --playout_slots_;
      break;
    }
    const Pick r = pick_leaf_graph(w, b);
    if (cap > 0 && (r == Pick::kCollision || r == Pick::kStop)) --playout_slots_;
    if (r == Pick::kDone) {
      if (limit_reached()) {
        std::lock_guard lock(mutex_);
        check_limits_locked();
      }
      if (++terminals >= 2 * batch) break;
    } else if (r == Pick::kCollision) {
      if (++collisions >= batch) break;
    } else if (r == Pick::kStop) {
      std::lock_guard lock(mutex_);
      check_limits_locked();
      break;
    }
  }
  if (b.leaves.empty()) {
    if (stop_.load(std::memory_order_relaxed)) return false;
    if (may_wait && terminals == 0) {
      std::unique_lock lock(mutex_);
      wait_for_backup(lock);
    }
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
  if (graph_ && !b.error) {  // no lock to back up; one, short, for the garbage and the limits
    for (int i = 0; i < k; ++i) integrate_graph(b, i);
    b.leaves.clear();
    {
      std::lock_guard lock(mutex_);
      if (!graph_garbage_.empty())
        free_graph_garbage_locked(std::size_t(4 * std::max(1, params_.batch_size)));
      check_limits_locked();
    }
    backup_cv_.notify_all();
    return;
  }
  {
    std::lock_guard lock(mutex_);
    if (b.error) {
      for (int i = 0; i < k; ++i) {
        const Leaf& leaf = b.leaves[i];
        if (graph_) {
          revert_graph(b.graph_nodes.data() + leaf.path_begin,
                       b.graph_edges.data() + leaf.path_begin, leaf.path_length);
          b.graph_nodes[leaf.path_begin + leaf.path_length - 1]->unclaim_expansion();
        } else {
          revert(b.paths.data() + leaf.path_begin, leaf.path_length);
        }
        if (b.blocks[i]) {
          b.blocks[i]->release();
          b.blocks[i] = nullptr;
        }
      }
      pending_ -= k;
      playout_slots_ -= k;   // the graph's; unused by the tree
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
      for (int i = 0; i < k; ++i) graph_ ? integrate_graph(b, i) : integrate(b, i);
      // Freed faster than the batch grows the tree, so the garbage of tree reuse goes away
      // within the next search or two; a fixed amount keeps one-thread searches reproducible.
      const std::size_t step = std::size_t(4 * std::max(1, params_.batch_size));
      if (!garbage_.empty()) free_garbage_locked(step);
      if (!graph_garbage_.empty()) free_graph_garbage_locked(step);
      check_limits_locked();
    }
    b.leaves.clear();
  }
  backup_cv_.notify_all();
}

// Keeps up to params.batches_per_thread mini-batches in flight: while the evaluator (a device)
// runs the oldest, the thread selects and submits the next; it completes them in the order it
// submitted them, so one thread's search does not depend on timing. On a stop it stops
// selecting and completes what is in flight before it returns: no evaluation outlives it.
void Search::worker_loop(Worker& w) {
  // While this thread searches, a batching evaluator counts it among those that may still add
  // to the batch it gathers (InferenceService: no wait for company once all of them wait).
  const ProducerScope producer(*evaluator_);
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

}  // namespace zh
