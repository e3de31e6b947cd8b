#pragma once
// Move text: UCI (e2e4, e7e8q, P@e4, castling as e1g1 or king-to-rook e1h1) and SAN
// (Nbd7, exd6, e8=Q+, N@f7#, O-O-O) in both directions.

#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/chess/move.h"
#include "engine/chess/position.h"

namespace zh {

// Thrown for move text that is malformed or not a legal move in the position.
class MoveError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string square_name(Square s);
Square parse_square(std::string_view text);  // kNoSquare when not a square name

enum class CastlingNotation { kKingTwoSquares, kKingToRook };

// UCI text of a move; castling as e1g1 unless kKingToRook is asked for (lichess's form).
std::string to_uci(Move m, CastlingNotation castling = CastlingNotation::kKingTwoSquares);
// Parses UCI text and checks it is legal in `pos`; accepts both castling forms.
Move parse_uci(const Position& pos, std::string_view text);  // throws MoveError

// SAN with disambiguation and +/# marks; `m` must be legal in `pos`.
std::string to_san(const Position& pos, Move m);
// Parses SAN (also pawn drops written "@e4", "0-0", trailing +#!? annotations).
Move parse_san(const Position& pos, std::string_view text);  // throws MoveError

}  // namespace zh
