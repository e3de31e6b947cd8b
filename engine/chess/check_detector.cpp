#include "engine/chess/check_detector.h"

#include "engine/chess/bitboard.h"

namespace zh {

CheckDetector::CheckDetector(const Position& pos)
    : pos_(pos),
      occupied_(pos.pieces()),
      discoverers_(0),
      their_king_(pos.king_square(~pos.side_to_move())),
      us_(pos.side_to_move()) {
  const Bitboard ours = pos.pieces(us_);
  Bitboard snipers =
      ((rook_attacks(their_king_, 0) & (pos.pieces(kRook) | pos.pieces(kQueen))) |
       (bishop_attacks(their_king_, 0) & (pos.pieces(kBishop) | pos.pieces(kQueen)))) &
      ours;
  while (snipers) {
    const Bitboard between = between_bb(their_king_, pop_lsb(snipers)) & occupied_;
    if (between && !more_than_one(between)) discoverers_ |= between & ours;
  }
}

bool CheckDetector::gives_check(Move m) const {
  const Bitboard king = square_bb(their_king_);
  const Square to = m.to();
  if (m.is_drop()) {
    const PieceType pt = m.piece();
    if (pt == kPawn) return (pawn_attacks(us_, to) & king) != 0;
    return (piece_attacks(pt, to, occupied_ | square_bb(to)) & king) != 0;
  }
  if (m.is_castling() || m.is_en_passant() || m.is_promotion()) {
    Position next = pos_;
    next.do_move(m);
    return next.in_check();
  }
  const Square from = m.from();
  const PieceType pt = type_of(pos_.piece_on(from));
  const Bitboard occ = (occupied_ ^ square_bb(from)) | square_bb(to);
  const Bitboard direct = pt == kPawn   ? pawn_attacks(us_, to)
                          : pt == kKing ? 0
                                        : piece_attacks(pt, to, occ);
  if (direct & king) return true;
  return (discoverers_ & square_bb(from)) && !(line_bb(from, their_king_) & square_bb(to));
}

}  // namespace zh
