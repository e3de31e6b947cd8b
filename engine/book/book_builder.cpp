#include "engine/book/book_builder.h"

#include <algorithm>
#include <cmath>

namespace zh::book {

void BookBuilder::add(const Position& pos, int ply, Move move, std::optional<double> mover_score) {
  ++stats_.samples;
  if (ply >= options_.max_plies) return;
  ++stats_.used;
  auto [it, fresh] = tallies_.try_emplace(book_key(pos));
  Tally& t = it->second;
  if (fresh) t.pos = pos;
  Tally::MoveTally* m = nullptr;
  for (auto& candidate : t.moves)
    if (candidate.move == move) m = &candidate;
  if (m == nullptr) m = &t.moves.emplace_back(Tally::MoveTally{move, 0, 0});
  ++m->n;
  m->points += mover_score.value_or(0.5);
}

std::uint32_t BookBuilder::weight(std::int64_t n, double points) {
  const double w = 100.0 * double(n) * (points + 1.0) / (double(n) + 2.0);
  return std::uint32_t(std::clamp(std::llround(w), 1LL, (long long)kMaxWeight));
}

OpeningBook BookBuilder::build() {
  OpeningBook book;
  stats_.positions = stats_.moves = 0;
  for (const auto& [key, t] : tallies_) {
    bool any = false;
    for (const auto& m : t.moves) {
      if (m.n < options_.min_count) continue;
      book.add(t.pos, m.move, weight(m.n, m.points));
      ++stats_.moves;
      any = true;
    }
    stats_.positions += any;
  }
  return book;
}

}  // namespace zh::book
