#pragma once
// A crazyhouse position as lichess plays it: board, pockets, promoted-piece mask, side to move,
// castling, en passant, counters and a zobrist key. A value type (copy-make is cheap).

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/chess/move.h"
#include "engine/chess/types.h"

namespace zh {

// Thrown for text that is not a valid FEN; the message says what is wrong and where.
class FenError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Position {
 public:
  static constexpr std::string_view kStartFen =
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1";

  Position();                                      // the start position
  static Position from_fen(std::string_view fen);  // throws FenError
  std::string fen() const;                         // lichess form (pocket as a 9th rank)

  // --- state ---
  Color side_to_move() const { return side_; }
  Piece piece_on(Square s) const { return board_[s]; }
  Bitboard pieces() const { return by_color_[kWhite] | by_color_[kBlack]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
  Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
  Square king_square(Color c) const { return lsb(pieces(c, kKing)); }
  int pocket(Color c, PieceType pt) const { return pocket_[c][pt]; }
  bool pocket_empty(Color c) const;
  Bitboard promoted() const { return promoted_; }
  unsigned castling_rights() const { return castling_; }
  bool can_castle(unsigned right) const { return (castling_ & right) != 0; }
  // The en passant target square only when an en passant capture is legal (lichess form);
  // kNoSquare otherwise.
  Square ep_square() const { return ep_; }
  int halfmove_clock() const { return halfmove_; }
  int fullmove_number() const { return fullmove_; }
  // Plies since the last irreversible move (castling is the only one in crazyhouse); bounds
  // how far back a repetition can be.
  int plies_since_irreversible() const { return reversible_plies_; }
  std::uint64_t key() const { return key_; }

  // --- rules ---
  Bitboard checkers() const { return checkers_; }
  bool in_check() const { return checkers_ != 0; }
  // All pieces of colour `by` that attack `s` given occupancy `occ`.
  Bitboard attackers_to(Square s, Bitboard occ, Color by) const;
  bool is_attacked(Square s, Color by) const { return attackers_to(s, pieces(), by) != 0; }
  // Pieces of colour c that alone shield c's king from an enemy slider.
  Bitboard pinned(Color c) const;
  // Whether the side to move's pawn on `from` may legally capture en passant on `ep`.
  bool ep_capture_legal_from(Square from, Square ep) const;
  // Fully legal moves (board moves, castling once, en passant, promotions, drops).
  void legal_moves(MoveList& out) const;
  MoveList legal_moves() const;
  // The legal moves that give check (board moves, promotions, castling, en passant and drops),
  // for mate searches: checking drops are generated directly, not filtered from every drop.
  void legal_checks(MoveList& out) const;
  // Number of legal moves, generated into a list (used by perft's bulk counting).
  int count_legal_moves() const;
  bool is_legal(Move m) const;  // m is one of legal_moves()
  bool is_capture(Move m) const;
  // m must be legal. For many moves of one position, one CheckDetector (check_detector.h).
  bool gives_check(Move m) const;
  // Plays a legal move. Precondition: is_legal(m). No validation on this hot path.
  void do_move(Move m);

  // Checkmate / stalemate (drops included: any piece in hand means no stalemate).
  bool is_checkmate() const;
  bool is_stalemate() const;

  // Internal consistency check (bitboards, board array, key); for tests and debugging.
  bool is_consistent() const;

  friend bool operator==(const Position& a, const Position& b);

 private:
  friend class FenParser;
  struct Empty {};
  explicit Position(Empty) { clear(); }
  void clear();
  void put_piece(Piece p, Square s);
  void remove_piece(Square s);
  void move_piece(Square from, Square to);
  void add_to_pocket(Color c, PieceType pt);
  void remove_from_pocket(Color c, PieceType pt);
  void update_derived();  // checkers, legal e.p. square, key
  std::uint64_t compute_key() const;
  bool ep_capture_legal(Square ep) const;

  std::array<Piece, 64> board_;
  Bitboard by_type_[kPieceTypes];
  Bitboard by_color_[2];
  Bitboard promoted_ = 0;
  Bitboard checkers_ = 0;
  std::uint64_t key_ = 0;
  std::uint8_t pocket_[2][kPocketTypes];
  Color side_ = kWhite;
  std::uint8_t castling_ = 0;
  Square ep_ = kNoSquare;
  std::uint16_t halfmove_ = 0;
  std::uint16_t fullmove_ = 1;
  std::uint16_t reversible_plies_ = 0;
};

}  // namespace zh
