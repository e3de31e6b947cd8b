#include "engine/search/graph.h"

namespace zh {

// The graph's bytes per position are set against the tree's (docs/performance.md): member order
// keeps the counters' tail padding used, which this holds on the 64-bit targets built.
static_assert(sizeof(void*) != 8 || (sizeof(GraphEdge) == 32 && sizeof(GraphNode) == 48));

GraphEdge* GraphNode::find_child(std::uint16_t edge_index) const {
  for (GraphEdge* e = first_child(); e; e = e->next_sibling()) {
    if (e->edge_index() == edge_index) return e;
    if (e->edge_index() > edge_index) break;
  }
  return nullptr;
}

void GraphNode::link_child(GraphEdge* prev, GraphEdge* edge) {
  if (prev) {
    edge->set_next_sibling(prev->next_sibling());
    prev->set_next_sibling(edge);
  } else {
    edge->set_next_sibling(first_child());
    set_first_child(edge);
  }
}

GraphNode* GraphTable::find(std::uint64_t key) const {
  const Shard& s = shard(key);
  std::lock_guard lock(s.mutex);
  auto it = s.map.find(key);
  return it == s.map.end() ? nullptr : it->second;
}

void GraphTable::count(const Shard& s, std::size_t buckets_before) {
  const std::size_t after = s.map.bucket_count();
  if (after != buckets_before)
    buckets_.fetch_add(after - buckets_before, std::memory_order_relaxed);
}

GraphNode* GraphTable::acquire(std::uint64_t key, bool* made) {
  Shard& s = shard(key);
  std::lock_guard lock(s.mutex);
  const std::size_t buckets = s.map.bucket_count();
  auto [it, inserted] = s.map.try_emplace(key, nullptr);
  if (inserted) {
    it->second = new GraphNode(key);
    size_.fetch_add(1, std::memory_order_relaxed);
    count(s, buckets);
  }
  it->second->retain();
  *made = inserted;
  return it->second;
}

bool GraphTable::drop(GraphNode* node) {
  Shard& s = shard(node->key());
  std::lock_guard lock(s.mutex);
  if (!node->release()) return false;
  auto it = s.map.find(node->key());
  if (it != s.map.end() && it->second == node) {
    s.map.erase(it);
    size_.fetch_sub(1, std::memory_order_relaxed);
  }
  return true;
}

std::vector<GraphNode*> GraphTable::all() const {
  std::vector<GraphNode*> out;
  out.reserve(size());
  for (const Shard& s : shards_) {
    std::lock_guard lock(s.mutex);
    for (const auto& [key, node] : s.map) out.push_back(node);
  }
  return out;
}

void GraphTable::forget_all() {
  std::size_t buckets = 0;
  for (Shard& s : shards_) {
    std::lock_guard lock(s.mutex);
    s.map.clear();
    buckets += s.map.bucket_count();
  }
  size_.store(0, std::memory_order_relaxed);
  buckets_.store(buckets, std::memory_order_relaxed);
}

}  // namespace zh
