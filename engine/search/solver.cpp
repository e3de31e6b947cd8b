#include "engine/search/solver.h"

#include <algorithm>
#include <climits>

namespace zh {

void make_terminal(Node* node, Proof proof) {
  node->set_terminal();
  node->set_proof(proof, 0);
}

bool try_prove(Node* node) {
  if (!node->expanded() || node->proof() != Proof::kNone) return false;
  int count = 0;
  bool all_proven = true;
  bool any_draw = false;
  int min_win = INT_MAX;
  int max_loss = 0;
  for (Node* c = node->first_child(); c; c = c->next_sibling()) {
    ++count;
    switch (c->proof()) {
      case Proof::kLoss:
        min_win = std::min(min_win, c->proof_plies());
        break;
      case Proof::kWin:
        max_loss = std::max(max_loss, c->proof_plies());
        break;
      case Proof::kDraw:
        any_draw = true;
        break;
      case Proof::kNone:
        all_proven = false;
        break;
    }
  }
  if (min_win != INT_MAX) {
    node->set_proof(Proof::kWin, min_win + 1);
    return true;
  }
  if (!all_proven || count < node->num_edges()) return false;
  if (any_draw)
    node->set_proof(Proof::kDraw, 0);
  else
    node->set_proof(Proof::kLoss, max_loss + 1);
  return true;
}

void prove_ancestors(Node* const* path, int length) {
  for (int i = length - 2; i >= 0; --i)
    if (!try_prove(path[i])) break;
}

}  // namespace zh
