#include "engine/chess/position.h"

#include <cstring>

#include "engine/chess/bitboard.h"
#include "engine/chess/check_detector.h"
#include "engine/chess/zobrist.h"

namespace zh {

namespace {
// Castling rights that survive a move touching each square (king or rook squares lose theirs).
constexpr std::uint8_t castling_mask_for(Square s) {
  switch (s) {
    case 0:
      return std::uint8_t(~kWhiteOOO);  // a1
    case 4:
      return std::uint8_t(~(kWhiteOO | kWhiteOOO));  // e1
    case 7:
      return std::uint8_t(~kWhiteOO);  // h1
    case 56:
      return std::uint8_t(~kBlackOOO);  // a8
    case 60:
      return std::uint8_t(~(kBlackOO | kBlackOOO));  // e8
    case 63:
      return std::uint8_t(~kBlackOO);  // h8
    default:
      return 0xFF;
  }
}
}  // namespace

Position::Position() { *this = from_fen(kStartFen); }

void Position::clear() {
  init_bitboards();
  board_.fill(kNoPiece);
  std::memset(by_type_, 0, sizeof by_type_);
  std::memset(by_color_, 0, sizeof by_color_);
  std::memset(pocket_, 0, sizeof pocket_);
  promoted_ = checkers_ = 0;
  key_ = 0;
  side_ = kWhite;
  castling_ = 0;
  ep_ = kNoSquare;
  halfmove_ = 0;
  fullmove_ = 1;
  reversible_plies_ = 0;
}

bool Position::pocket_empty(Color c) const {
  for (int pt = 0; pt < kPocketTypes; ++pt)
    if (pocket_[c][pt]) return false;
  return true;
}

void Position::put_piece(Piece p, Square s) {
  board_[s] = p;
  by_type_[type_of(p)] |= square_bb(s);
  by_color_[color_of(p)] |= square_bb(s);
  key_ ^= zobrist::piece_square[p][s];
}

void Position::remove_piece(Square s) {
  Piece p = board_[s];
  board_[s] = kNoPiece;
  by_type_[type_of(p)] &= ~square_bb(s);
  by_color_[color_of(p)] &= ~square_bb(s);
  key_ ^= zobrist::piece_square[p][s];
}

void Position::move_piece(Square from, Square to) {
  Piece p = board_[from];
  Bitboard both = square_bb(from) | square_bb(to);
  board_[from] = kNoPiece;
  board_[to] = p;
  by_type_[type_of(p)] ^= both;
  by_color_[color_of(p)] ^= both;
  key_ ^= zobrist::piece_square[p][from] ^ zobrist::piece_square[p][to];
}

void Position::add_to_pocket(Color c, PieceType pt) {
  int n = pocket_[c][pt];
  // Beyond kMaxPocketCount the key stops distinguishing counts; no legal game gets there.
  if (n < zobrist::kMaxPocketCount)
    key_ ^= zobrist::pocket[c][pt][n] ^ zobrist::pocket[c][pt][n + 1];
  pocket_[c][pt] = std::uint8_t(n + 1);
}

void Position::remove_from_pocket(Color c, PieceType pt) {
  int n = pocket_[c][pt];
  if (n <= zobrist::kMaxPocketCount)
    key_ ^= zobrist::pocket[c][pt][n] ^ zobrist::pocket[c][pt][n - 1];
  pocket_[c][pt] = std::uint8_t(n - 1);
}

Bitboard Position::attackers_to(Square s, Bitboard occ, Color by) const {
  const Bitboard them = by_color_[by];
  return ((pawn_attacks(~by, s) & by_type_[kPawn]) | (knight_attacks(s) & by_type_[kKnight]) |
          (king_attacks(s) & by_type_[kKing]) |
          (rook_attacks(s, occ) & (by_type_[kRook] | by_type_[kQueen])) |
          (bishop_attacks(s, occ) & (by_type_[kBishop] | by_type_[kQueen]))) &
         them;
}

Bitboard Position::pinned(Color c) const {
  const Square ksq = king_square(c);
  const Bitboard them = by_color_[~c];
  Bitboard snipers = ((rook_attacks(ksq, 0) & (by_type_[kRook] | by_type_[kQueen])) |
                      (bishop_attacks(ksq, 0) & (by_type_[kBishop] | by_type_[kQueen]))) &
                     them;
  Bitboard result = 0;
  const Bitboard occ = pieces();
  while (snipers) {
    Bitboard between = between_bb(ksq, pop_lsb(snipers)) & occ;
    if (between && !more_than_one(between)) result |= between & by_color_[c];
  }
  return result;
}

bool Position::ep_capture_legal_from(Square from, Square ep) const {
  // Play the capture out on the bitboards: this covers the rank pin where both pawns leave
  // the king's rank, and checks the capture must answer.
  const Color us = side_;
  const Square captured = Square(us == kWhite ? ep - 8 : ep + 8);
  const Square ksq = king_square(us);
  const Bitboard occ = (pieces() ^ square_bb(from) ^ square_bb(captured)) | square_bb(ep);
  const Bitboard them = by_color_[~us] & ~square_bb(captured);
  return !((rook_attacks(ksq, occ) & (by_type_[kRook] | by_type_[kQueen]) & them) ||
           (bishop_attacks(ksq, occ) & (by_type_[kBishop] | by_type_[kQueen]) & them) ||
           (knight_attacks(ksq) & by_type_[kKnight] & them) ||
           (pawn_attacks(us, ksq) & by_type_[kPawn] & them));
}

bool Position::ep_capture_legal(Square ep) const {
  // Lichess keeps the e.p. square only when some capture on it is legal.
  for (Bitboard b = pawn_attacks(~side_, ep) & pieces(side_, kPawn); b;)
    if (ep_capture_legal_from(pop_lsb(b), ep)) return true;
  return false;
}

std::uint64_t Position::compute_key() const {
  std::uint64_t k = 0;
  for (int s = 0; s < 64; ++s)
    if (board_[s] != kNoPiece) k ^= zobrist::piece_square[board_[s]][s];
  for (int c = 0; c < 2; ++c)
    for (int pt = 0; pt < kPocketTypes; ++pt) {
      int n = pocket_[c][pt];
      if (n > zobrist::kMaxPocketCount) n = zobrist::kMaxPocketCount;
      k ^= zobrist::pocket[c][pt][n];
    }
  for (Bitboard b = promoted_; b;) k ^= zobrist::promoted[pop_lsb(b)];
  k ^= zobrist::castling[castling_];
  if (ep_ != kNoSquare) k ^= zobrist::en_passant_file[file_of(ep_)];
  if (side_ == kBlack) k ^= zobrist::side;
  return k;
}

void Position::do_move(Move m) {
  const Color us = side_, them = ~us;
  const Square to = m.to();

  // The previous e.p. square leaves the key; castling rights are re-keyed at the end.
  if (ep_ != kNoSquare) {
    key_ ^= zobrist::en_passant_file[file_of(ep_)];
    ep_ = kNoSquare;
  }
  key_ ^= zobrist::castling[castling_];
  ++reversible_plies_;
  Square new_ep = kNoSquare;

  if (m.is_drop()) {
    const PieceType pt = m.piece();
    remove_from_pocket(us, pt);
    put_piece(make_piece(us, pt), to);
    halfmove_ = pt == kPawn ? 0 : std::uint16_t(halfmove_ + 1);
  } else if (m.is_castling()) {
    const Square from = m.from();
    const bool king_side = to > from;
    const Square rook_from = Square(king_side ? from + 3 : from - 4);
    const Square rook_to = Square(king_side ? from + 1 : from - 1);
    move_piece(from, to);
    move_piece(rook_from, rook_to);
    castling_ &= us == kWhite ? std::uint8_t(~(kWhiteOO | kWhiteOOO))
                              : std::uint8_t(~(kBlackOO | kBlackOOO));
    ++halfmove_;
    reversible_plies_ = 0;  // castling is the only irreversible move in crazyhouse
  } else {
    const Square from = m.from();
    const PieceType moving = type_of(board_[from]);
    bool reset_clock = moving == kPawn;

    Square capture_sq = m.is_en_passant() ? Square(us == kWhite ? to - 8 : to + 8) : to;
    if (board_[capture_sq] != kNoPiece) {
      // The capturer pockets the piece, colour flipped; a promoted piece goes back as a pawn.
      const Bitboard cap_bb = square_bb(capture_sq);
      PieceType captured = type_of(board_[capture_sq]);
      if (promoted_ & cap_bb) {
        captured = kPawn;
        promoted_ ^= cap_bb;
        key_ ^= zobrist::promoted[capture_sq];
      }
      remove_piece(capture_sq);
      add_to_pocket(us, captured);
      reset_clock = true;
    }

    move_piece(from, to);
    if (promoted_ & square_bb(from)) {  // the promoted mark follows the piece
      promoted_ ^= square_bb(from) | square_bb(to);
      key_ ^= zobrist::promoted[from] ^ zobrist::promoted[to];
    }
    if (m.is_promotion()) {
      remove_piece(to);
      put_piece(make_piece(us, m.piece()), to);
      promoted_ |= square_bb(to);
      key_ ^= zobrist::promoted[to];
    } else if (moving == kPawn && (from ^ to) == 16) {
      new_ep = Square((from + to) / 2);
    }
    castling_ &= castling_mask_for(from) & castling_mask_for(to);
    halfmove_ = reset_clock ? 0 : std::uint16_t(halfmove_ + 1);
  }

  key_ ^= zobrist::castling[castling_];
  if (us == kBlack) ++fullmove_;
  side_ = them;
  key_ ^= zobrist::side;
  checkers_ = attackers_to(king_square(them), pieces(), us);
  if (new_ep != kNoSquare && (pawn_attacks(us, new_ep) & pieces(them, kPawn)) &&
      ep_capture_legal(new_ep)) {
    ep_ = new_ep;
    key_ ^= zobrist::en_passant_file[file_of(ep_)];
  }
}

void Position::update_derived() {
  checkers_ = attackers_to(king_square(side_), pieces(), ~side_);
  if (ep_ != kNoSquare && !ep_capture_legal(ep_)) ep_ = kNoSquare;
  key_ = compute_key();
}

bool Position::is_capture(Move m) const {
  return !m.is_drop() && !m.is_castling() && (m.is_en_passant() || board_[m.to()] != kNoPiece);
}

bool Position::gives_check(Move m) const { return CheckDetector(*this).gives_check(m); }

bool Position::is_checkmate() const { return in_check() && count_legal_moves() == 0; }
bool Position::is_stalemate() const { return !in_check() && count_legal_moves() == 0; }

MoveList Position::legal_moves() const {
  MoveList list;
  legal_moves(list);
  return list;
}

int Position::count_legal_moves() const {
  MoveList list;
  legal_moves(list);
  return list.count;
}

bool Position::is_legal(Move m) const { return legal_moves().contains(m); }

bool Position::is_consistent() const {
  Bitboard all = 0;
  for (int s = 0; s < 64; ++s) {
    Piece p = board_[s];
    if (p == kNoPiece) continue;
    if (!(by_type_[type_of(p)] & by_color_[color_of(p)] & square_bb(Square(s)))) return false;
    all |= square_bb(Square(s));
  }
  if (all != pieces() || (by_color_[kWhite] & by_color_[kBlack])) return false;
  if (popcount(pieces(kWhite, kKing)) != 1 || popcount(pieces(kBlack, kKing)) != 1) return false;
  if (promoted_ & ~pieces()) return false;
  return key_ == compute_key();
}

bool operator==(const Position& a, const Position& b) {
  return a.board_ == b.board_ && std::memcmp(a.pocket_, b.pocket_, sizeof a.pocket_) == 0 &&
         a.promoted_ == b.promoted_ && a.side_ == b.side_ && a.castling_ == b.castling_ &&
         a.ep_ == b.ep_ && a.halfmove_ == b.halfmove_ && a.fullmove_ == b.fullmove_;
}

}  // namespace zh
