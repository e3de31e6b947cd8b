#pragma once
// A crazyhouse opening book: position -> weighted moves, drops included (Polyglot cannot
// express drops, so the book has its own text format; spec in docs/opening-book.md).
//
//   zhbot-book 1
//   # comment
//   rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - | e2e4:120 b1c3:80
//
// A position is keyed by its normalised FEN: board with pockets and promotion marks, side to
// move, castling rights and the en-passant square only when an en-passant capture is legal; no
// move counters. Keying by text rather than by zobrist key keeps a book readable, diff-able and
// valid across versions of the hashing. Every move is checked legal when the book is loaded.

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/chess/move.h"
#include "engine/chess/position.h"

namespace zh::book {

inline constexpr std::string_view kBookHeader = "zhbot-book 1";
inline constexpr std::uint32_t kMaxWeight = 1'000'000'000;

// A malformed book file; the message names the source, the line and the problem.
class BookError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct BookMove {
  Move move;
  std::uint32_t weight = 0;  // > 0; relative to the other moves of the position
};

// The normalised FEN a position is stored under (4 fields, see above).
std::string book_key(const Position& pos);

class OpeningBook {
 public:
  // Adds `weight` to `move` in `pos` (a new entry when the move is not there yet). `move` must
  // be legal in `pos`.
  void add(const Position& pos, Move move, std::uint32_t weight);
  // The moves of `pos`, heaviest first; empty when the position is not in the book.
  const std::vector<BookMove>& moves(const Position& pos) const;
  std::size_t positions() const { return entries_.size(); }
  std::size_t total_moves() const;

  // Reads the text format; throws BookError "<source>:<line>: <problem>".
  static OpeningBook parse(std::string_view text, const std::string& source);
  static OpeningBook load(const std::filesystem::path& path);  // BookError when unreadable
  // The text format, positions sorted by key (stable, diff-able output).
  void write(std::ostream& out) const;
  // Writes atomically (temporary file, then rename); throws BookError on I/O failure.
  void save(const std::filesystem::path& path) const;

 private:
  struct Entry {
    std::vector<BookMove> moves;
  };
  void sort_moves(std::vector<BookMove>& moves) const;
  std::unordered_map<std::string, Entry> entries_;
};

enum class Selection { kWeighted, kBest };

// Picks a move among those with weight >= min_weight: at random in proportion to the weights,
// or the heaviest. Null move when none qualifies.
Move choose_move(const std::vector<BookMove>& moves, Selection selection, std::uint32_t min_weight,
                 std::mt19937_64& rng);

}  // namespace zh::book
