#pragma once
// Builds an opening book from played (or recommended) moves: every sample is a position, the
// move chosen there and, when known, how the game ended for the side that chose it. Moves seen
// fewer than `min_count` times are dropped; a move's weight grows with how often it was chosen
// and with the score it got:
//
//   weight = round(100 * n * (points + 1) / (n + 2))
//
// (n samples, points = wins + draws / 2 for the mover; the score is smoothed towards 1/2, so a
// move chosen once and lost still counts, and with no results known the weight is 50 n).

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/book/opening_book.h"

namespace zh::book {

struct BuildOptions {
  int max_plies = 20;  // positions with this many half-moves played or more are left out
  int min_count = 1;   // a move seen fewer times is left out
};

struct BuildStats {
  std::int64_t samples = 0;    // positions offered
  std::int64_t used = 0;       // ... within max_plies
  std::int64_t bad = 0;        // ... refused (bad FEN, illegal move); see the sources' reports
  std::int64_t positions = 0;  // in the built book
  std::int64_t moves = 0;      // in the built book
};

class BookBuilder {
 public:
  explicit BookBuilder(BuildOptions options) : options_(options) {}

  // `ply`: half-moves played before `pos` in its game; `mover_score`: 1 win, 0.5 draw, 0 loss
  // for the side to move in `pos`, none when the result is unknown. `move` must be legal.
  void add(const Position& pos, int ply, Move move, std::optional<double> mover_score);
  void count_bad() { ++stats_.bad; }

  OpeningBook build();
  const BuildStats& stats() const { return stats_; }
  const BuildOptions& options() const { return options_; }

  static std::uint32_t weight(std::int64_t n, double points);

 private:
  struct Tally {
    Position pos;
    struct MoveTally {
      Move move;
      std::int64_t n = 0;
      double points = 0;
    };
    std::vector<MoveTally> moves;
  };
  BuildOptions options_;
  BuildStats stats_;
  std::unordered_map<std::string, Tally> tallies_;
};

}  // namespace zh::book
