#pragma once
// Transposition of network evaluations (paper 9.2.5): positions reached by different move
// orders share one EvalBlock (value + priors) instead of asking the network twice. The key is
// the zobrist key plus the counters that enter the input planes (move number, no-progress
// counter, repetitions). A network of input format 2.0 also sees the last two moves, which the
// key leaves out: a transposition reuses the evaluation made with the first path's moves.
// Not thread-safe: the search calls it under its tree mutex.

#include <cstddef>
#include <cstdint>
#include <unordered_map>

#include "engine/chess/position.h"
#include "engine/search/node.h"

namespace zh {

std::uint64_t eval_key(const Position& pos, int repetitions);

class EvalCache {
 public:
  EvalCache() = default;
  EvalCache(const EvalCache&) = delete;
  EvalCache& operator=(const EvalCache&) = delete;
  ~EvalCache() { clear(); }
  // A new reference to the cached block, or nullptr.
  EvalBlock* lookup(std::uint64_t key) const;
  // Stores `block` (the cache takes its own reference); keeps an existing entry.
  void insert(std::uint64_t key, EvalBlock* block);
  // Drops entries no node uses any more; returns the block bytes freed.
  std::size_t prune_unused();
  std::size_t clear();  // returns the block bytes freed
  std::size_t size() const { return map_.size(); }
  // Bytes of the cache's own bookkeeping (the blocks are counted by the tree).
  std::size_t bytes() const { return map_.size() * kEntryBytes + map_.bucket_count() * 8; }
  // Bytes of blocks held only by the cache.

 private:
  // One hash node of std::unordered_map<uint64_t, pointer> on 64-bit libstdc++:
  // next pointer, key, value.
  static constexpr std::size_t kEntryBytes = 24;
  std::unordered_map<std::uint64_t, EvalBlock*> map_;
};

}  // namespace zh
