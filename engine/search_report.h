#pragma once
// What a search tells its caller, as numbers: the periodic and final info (score in centipawns
// or mate, PV, counters) and the best move. Built from a SearchSnapshot here, in one place;
// the UCI front end and the bot turn them into text.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/chess/move.h"
#include "engine/search/search.h"

namespace zh {

struct SearchInfo {
  int depth = 0;            // PV length
  int seldepth = 0;         // deepest path
  std::optional<int> mate;  // moves to mate (negative: we get mated)
  int cp = 0;
  float q = 0;             // value of the chosen move for the side to move, in [-1, 1]
  std::int64_t nodes = 0;  // playouts in this search
  std::int64_t nps = 0;
  std::int64_t time_ms = 0;
  std::int64_t evaluations = 0;
  std::int64_t tree_nodes = 0;
  std::size_t tree_bytes = 0;
  int hashfull = 0;  // tree memory in permille of the cap
  std::vector<Move> pv;
};

struct BestMove {
  Move move;    // null (0000) when the position has no legal move
  Move ponder;  // null when the PV has no reply
  StopReason reason = StopReason::kNone;
  std::string error;  // why the search failed, if it did
};

// The info of a search `elapsed_ms` after its start. The score: a proven result as mate in
// moves (and +-1 / +-9999 cp), else the best move's Q and its centipawns by the paper's
// conversion (formulas::value_to_centipawns); 0 before the best move has a visit.
SearchInfo make_search_info(const SearchSnapshot& s, std::int64_t elapsed_ms);

// The answer when root move `choice` is played: its ponder move is the PV's reply, when the
// move is the PV's first (a sampled move has no searched reply to offer).
BestMove make_bestmove(const SearchSnapshot& s, int choice);

}  // namespace zh
