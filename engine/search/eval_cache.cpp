#include "engine/search/eval_cache.h"

namespace zh {

std::uint64_t eval_key(const Position& pos, int repetitions) {
  // Mix the counters in with a multiplier that spreads them over all 64 bits.
  std::uint64_t extra = std::uint64_t(pos.fullmove_number()) |
                        (std::uint64_t(pos.halfmove_clock()) << 20) |
                        (std::uint64_t(repetitions) << 40);
  return pos.key() ^ (extra * 0x9E3779B97F4A7C15ULL);
}

EvalBlock* EvalCache::lookup(std::uint64_t key) const {
  auto it = map_.find(key);
  if (it == map_.end()) return nullptr;
  it->second->retain();
  return it->second;
}

void EvalCache::insert(std::uint64_t key, EvalBlock* block) {
  auto [it, inserted] = map_.try_emplace(key, block);
  if (inserted) block->retain();
}

std::size_t EvalCache::prune_unused() {
  std::size_t freed = 0;
  for (auto it = map_.begin(); it != map_.end();) {
    if (it->second->refs() == 1) {
      freed += it->second->release();
      it = map_.erase(it);
    } else {
      ++it;
    }
  }
  return freed;
}

std::size_t EvalCache::clear() {
  std::size_t freed = 0;
  for (auto& [key, block] : map_) freed += block->release();
  map_.clear();
  return freed;
}

}  // namespace zh
