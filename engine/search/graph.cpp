#include "engine/search/graph.h"

namespace zh {

GraphEdge* GraphNode::find_child(std::uint16_t edge_index) const {
  for (GraphEdge* e = first_; e; e = e->next_sibling()) {
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
    edge->set_next_sibling(first_);
    first_ = edge;
  }
}

GraphNode* GraphTable::create(std::uint64_t key) {
  auto* node = new GraphNode(key);
  map_.emplace(key, node);
  return node;
}

std::vector<GraphNode*> GraphTable::all() const {
  std::vector<GraphNode*> out;
  out.reserve(map_.size());
  for (const auto& [key, node] : map_) out.push_back(node);
  return out;
}

}  // namespace zh
