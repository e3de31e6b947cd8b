// Fully legal move generation: pins and checks are resolved here, so every generated move
// can be played without a further test (perft counts leaves straight from the list size).
#include "engine/chess/bitboard.h"
#include "engine/chess/check_detector.h"
#include "engine/chess/position.h"

namespace zh {

namespace {

inline bool pin_allows(Bitboard pinned, Square ksq, Square from, Square to) {
  return !(pinned & square_bb(from)) || (line_bb(ksq, from) & square_bb(to));
}

template <Color Us>
Move* pawn_moves(const Position& pos, Move* out, Bitboard target, Bitboard pinned, Square ksq) {
  constexpr Color Them = ~Us;
  constexpr int kUp = Us == kWhite ? 8 : -8;
  constexpr Bitboard kLastRank = Us == kWhite ? kRank8 : kRank1;
  constexpr Bitboard kThirdRank = Us == kWhite ? rank_bb(2) : rank_bb(5);
  const Bitboard empty = ~pos.pieces();
  const Bitboard pawns = pos.pieces(Us, kPawn);
  const Bitboard enemies = pos.pieces(Them);

  auto emit = [&](Bitboard dests, int delta) {
    while (dests) {
      const Square to = pop_lsb(dests);
      const Square from = Square(to - delta);
      if (!pin_allows(pinned, ksq, from, to)) continue;
      if (square_bb(to) & kLastRank) {
        for (PieceType pt : {kQueen, kRook, kBishop, kKnight})
          *out++ = Move::promotion(from, to, pt);
      } else {
        *out++ = Move::normal(from, to);
      }
    }
  };

  const Bitboard single = push_forward<Us>(pawns) & empty;
  const Bitboard dbl = push_forward<Us>(single & kThirdRank) & empty;
  emit(single & target, kUp);
  emit(dbl & target, 2 * kUp);
  constexpr Bitboard kNotFileA = ~file_bb(0), kNotFileH = ~file_bb(7);
  // Capture towards the lower file (from file f to f-1) and the higher file.
  const Bitboard left = push_forward<Us>(pawns & kNotFileA) >> 1;
  const Bitboard right = push_forward<Us>(pawns & kNotFileH) << 1;
  emit(left & enemies & target, kUp - 1);
  emit(right & enemies & target, kUp + 1);

  const Square ep = pos.ep_square();
  if (ep != kNoSquare) {
    for (Bitboard b = pawn_attacks(Them, ep) & pawns; b;) {
      const Square from = pop_lsb(b);
      if (pos.ep_capture_legal_from(from, ep)) *out++ = Move::en_passant(from, ep);
    }
  }
  return out;
}

template <Color Us>
Move* castling_moves(const Position& pos, Move* out) {
  constexpr Color Them = ~Us;
  constexpr Square kKing = Us == kWhite ? 4 : 60;
  constexpr unsigned kOO = Us == kWhite ? kWhiteOO : kBlackOO;
  constexpr unsigned kOOO = Us == kWhite ? kWhiteOOO : kBlackOOO;
  const Bitboard occ = pos.pieces();
  const Bitboard rooks = pos.pieces(Us, kRook);
  if (pos.can_castle(kOO) && (rooks & square_bb(kKing + 3)) &&
      !(occ & (square_bb(kKing + 1) | square_bb(kKing + 2))) &&
      !pos.attackers_to(Square(kKing + 1), occ, Them) &&
      !pos.attackers_to(Square(kKing + 2), occ, Them))
    *out++ = Move::castling(kKing, Square(kKing + 2));
  if (pos.can_castle(kOOO) && (rooks & square_bb(kKing - 4)) &&
      !(occ & (square_bb(kKing - 1) | square_bb(kKing - 2) | square_bb(kKing - 3))) &&
      !pos.attackers_to(Square(kKing - 1), occ, Them) &&
      !pos.attackers_to(Square(kKing - 2), occ, Them))
    *out++ = Move::castling(kKing, Square(kKing - 2));
  return out;
}

template <Color Us, bool kWithDrops = true>
Move* generate(const Position& pos, Move* out) {
  constexpr Color Them = ~Us;
  const Bitboard occ = pos.pieces();
  const Bitboard ours = pos.pieces(Us);
  const Square ksq = pos.king_square(Us);
  const Bitboard checkers = pos.checkers();

  // King steps: test each destination with the king lifted off the board, so it cannot
  // hide behind itself from a slider.
  const Bitboard occ_without_king = occ ^ square_bb(ksq);
  for (Bitboard b = king_attacks(ksq) & ~ours; b;) {
    const Square to = pop_lsb(b);
    if (!pos.attackers_to(to, occ_without_king, Them)) *out++ = Move::normal(ksq, to);
  }
  if (more_than_one(checkers)) return out;  // double check: only the king may move

  Bitboard target = ~ours;  // where other pieces may go
  Bitboard drop_target = ~occ;
  if (checkers) {
    const Square checker = lsb(checkers);
    drop_target = between_bb(ksq, checker);  // empty for contact and knight checks
    target = drop_target | checkers;
  } else {
    out = castling_moves<Us>(pos, out);
  }

  const Bitboard pinned = pos.pinned(Us);
  out = pawn_moves<Us>(pos, out, target, pinned, ksq);

  for (Bitboard b = pos.pieces(Us, kKnight) & ~pinned; b;) {
    const Square from = pop_lsb(b);
    for (Bitboard t = knight_attacks(from) & target; t;) *out++ = Move::normal(from, pop_lsb(t));
  }
  const Bitboard diagonal = pos.pieces(Us, kBishop) | pos.pieces(Us, kQueen);
  const Bitboard straight = pos.pieces(Us, kRook) | pos.pieces(Us, kQueen);
  for (Bitboard b = diagonal; b;) {
    const Square from = pop_lsb(b);
    Bitboard t = bishop_attacks(from, occ) & target;
    if (pinned & square_bb(from)) t &= line_bb(ksq, from);
    while (t) *out++ = Move::normal(from, pop_lsb(t));
  }
  for (Bitboard b = straight; b;) {
    const Square from = pop_lsb(b);
    Bitboard t = rook_attacks(from, occ) & target;
    if (pinned & square_bb(from)) t &= line_bb(ksq, from);
    while (t) *out++ = Move::normal(from, pop_lsb(t));
  }

  // Drops: one move per (piece type, square); a drop only adds a blocker, so pins never matter.
  if (kWithDrops && drop_target) {
    for (int pt = kPawn; pt <= kQueen; ++pt) {
      if (!pos.pocket(Us, PieceType(pt))) continue;
      Bitboard t = pt == kPawn ? drop_target & ~(kRank1 | kRank8) : drop_target;
      while (t) *out++ = Move::drop(PieceType(pt), pop_lsb(t));
    }
  }
  return out;
}

// The drops that give check: a piece dropped where it attacks the enemy king. Legal exactly
// where any drop is: on an empty square, between our king and its single checker when in check.
template <Color Us>
Move* checking_drops(const Position& pos, Move* out) {
  constexpr Color Them = ~Us;
  const Bitboard checkers = pos.checkers();
  if (more_than_one(checkers)) return out;
  const Bitboard occ = pos.pieces();
  const Bitboard drop_target = checkers ? between_bb(pos.king_square(Us), lsb(checkers)) : ~occ;
  const Square their_king = pos.king_square(Them);
  for (int pt = kPawn; pt <= kQueen; ++pt) {
    if (!pos.pocket(Us, PieceType(pt))) continue;
    // The squares a piece of this kind attacks the king from are those it attacks from the king.
    Bitboard t = pt == kPawn ? pawn_attacks(Them, their_king) & ~(kRank1 | kRank8)
                             : piece_attacks(PieceType(pt), their_king, occ);
    for (t &= drop_target; t;) *out++ = Move::drop(PieceType(pt), pop_lsb(t));
  }
  return out;
}

template <Color Us>
Move* checking_moves(const Position& pos, Move* out) {
  Move* const first = out;
  Move* end = generate<Us, false>(pos, out);
  const CheckDetector detector(pos);
  for (Move* m = first; m != end; ++m)
    if (detector.gives_check(*m)) *out++ = *m;
  return checking_drops<Us>(pos, out);
}

}  // namespace

void Position::legal_checks(MoveList& list) const {
  Move* end = side_ == kWhite ? checking_moves<kWhite>(*this, list.moves)
                              : checking_moves<kBlack>(*this, list.moves);
  list.count = int(end - list.moves);
}

void Position::legal_moves(MoveList& list) const {
  Move* end =
      side_ == kWhite ? generate<kWhite>(*this, list.moves) : generate<kBlack>(*this, list.moves);
  list.count = int(end - list.moves);
}

}  // namespace zh
