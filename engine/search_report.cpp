#include "engine/search_report.h"

#include <algorithm>

#include "engine/search/formulas.h"

namespace zh {

SearchInfo make_search_info(const SearchSnapshot& s, std::int64_t elapsed_ms) {
  SearchInfo info;
  info.pv = s.pv;
  info.depth = int(s.pv.size());
  info.seldepth = std::max(s.seldepth, info.depth);
  info.nodes = s.playouts;
  info.time_ms = elapsed_ms;
  info.nps = elapsed_ms > 0 ? s.playouts * 1000 / elapsed_ms : 0;
  info.evaluations = s.evaluations;
  info.tree_nodes = s.tree_nodes;
  info.tree_bytes = s.tree_bytes;
  info.hashfull = s.memory_cap_bytes
                      ? int(std::min<std::size_t>(1000, s.tree_bytes * 1000 / s.memory_cap_bytes))
                      : 0;
  if (s.root_proof == Proof::kWin || s.root_proof == Proof::kLoss) {
    const int moves = (s.root_proof_plies + 1) / 2;
    info.mate = s.root_proof == Proof::kWin ? moves : -moves;
    info.q = s.root_proof == Proof::kWin ? 1.0f : -1.0f;
    info.cp = s.root_proof == Proof::kWin ? 9999 : -9999;
  } else if (s.best >= 0) {
    info.q = s.children[s.best].q;
    // Nothing searched below the move yet (a forced move is played at once): the root's own
    // value stands for it, not a level 0 that would break a resign or draw-offer streak.
    if (s.children[s.best].visits == 0 && s.children[s.best].proof == Proof::kNone)
      info.q = s.root_q;
    info.cp = formulas::value_to_centipawns(info.q);
  }
  return info;
}

BestMove make_bestmove(const SearchSnapshot& s, int choice) {
  BestMove best;
  best.reason = s.reason;
  best.error = s.error;
  if (choice < 0) return best;
  best.move = s.children[choice].move;
  if (choice == s.best && s.pv.size() > 1) best.ponder = s.pv[1];
  return best;
}

}  // namespace zh
