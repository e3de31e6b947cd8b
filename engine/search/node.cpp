#include "engine/search/node.h"

#include <cstring>
#include <vector>

namespace zh {

EvalBlock* EvalBlock::create(int num_edges) {
  void* mem = ::operator new(bytes_for(num_edges));
  auto* b = new (mem) EvalBlock();
  b->num_edges = std::uint16_t(num_edges);
  return b;
}

EvalBlock* EvalBlock::clone() const {
  EvalBlock* b = create(num_edges);
  b->value = value;
  b->mate_edge = mate_edge;
  b->mate_plies = mate_plies;
  b->evaluated = evaluated;
  std::memcpy(b->edges(), edges(), std::size_t(num_edges) * sizeof(Edge));
  return b;
}

void EvalBlock::destroy() {
  this->~EvalBlock();
  ::operator delete(static_cast<void*>(this));
}

Node::~Node() { release_block(); }

Node* Node::find_child(std::uint16_t edge_index) const {
  for (Node* c = first_child_; c; c = c->next_sibling_) {
    if (c->edge_index_ == edge_index) return c;
    if (c->edge_index_ > edge_index) break;
  }
  return nullptr;
}

void Node::link_child(Node* prev, Node* child) {
  if (prev) {
    child->next_sibling_ = prev->next_sibling_;
    prev->next_sibling_ = child;
  } else {
    child->next_sibling_ = first_child_;
    first_child_ = child;
  }
}

Node* Node::unlink_child(std::uint16_t edge_index) {
  Node* prev = nullptr;
  for (Node* c = first_child_; c; prev = c, c = c->next_sibling_) {
    if (c->edge_index_ != edge_index) continue;
    (prev ? prev->next_sibling_ : first_child_) = c->next_sibling_;
    c->next_sibling_ = nullptr;
    return c;
  }
  return nullptr;
}

FreedMemory delete_subtree(Node* root) {
  FreedMemory freed;
  if (!root) return freed;
  std::vector<Node*> stack{root};
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    for (Node* c = n->first_child(); c; c = c->next_sibling()) stack.push_back(c);
    freed.expanded += n->expanded();
    freed.block_bytes += n->release_block();
    delete n;
    ++freed.nodes;
  }
  return freed;
}

}  // namespace zh
