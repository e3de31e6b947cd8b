#include "engine/nn/encoder.h"

#include <algorithm>
#include <cassert>

namespace zh {
namespace {

void fill_plane(float* planes, int index, float value) {
  std::fill_n(planes + index * kPlaneSquares, kPlaneSquares, value);
}

// Sets the squares of `bb` to 1 in plane `index`; `flip` maps rank r to 7 - r.
void set_bits(float* planes, int index, Bitboard bb, bool flip) {
  float* p = planes + index * kPlaneSquares;
  while (bb) {
    const Square s = pop_lsb(bb);
    p[flip ? flip_rank(s) : s] = 1.0f;
  }
}

// A move as from, to and drop planes starting at `first`: a drop marks its to-square and the
// drop plane (the dropped piece stands on that square in the piece planes).
void set_move(float* planes, int first, Move m, bool flip) {
  if (m.is_null()) return;
  if (m.is_drop())
    fill_plane(planes, first + 2, 1.0f);
  else
    set_bits(planes, first, square_bb(m.from()), flip);
  set_bits(planes, first + 1, square_bb(m.to()), flip);
}

// Format 2.0's planes after the first 34.
void encode_v2_extra(const EvalInput& input, float* planes, bool flip) {
  const Position& pos = input.position;
  const Color me = pos.side_to_move();
  set_move(planes, plane::kLastMove, input.last_moves[0], flip);
  set_move(planes, plane::kMyLastMove, input.last_moves[1], flip);
  set_bits(planes, plane::kCheckers, pos.checkers(), flip);
  for (int pt = kPawn; pt <= kQueen; ++pt) {
    const PieceType t = PieceType(pt);
    const int diff = popcount(pos.pieces(me, t)) + pos.pocket(me, t) -
                     popcount(pos.pieces(~me, t)) - pos.pocket(~me, t);
    if (diff) fill_plane(planes, plane::kMaterialDiff + pt, float(diff) / kMaterialScale);
  }
}

}  // namespace

void encode_position(const EvalInput& input, std::span<float> out, bool normalize,
                     InputFormat format) {
  assert(out.size() >= static_cast<std::size_t>(input_size(format)));
  const Position& pos = input.position;
  float* planes = out.data();
  std::fill_n(planes, input_size(format), 0.0f);

  const Color me = pos.side_to_move();
  const Color you = ~me;
  const bool flip = me == kBlack;

  for (int pt = kPawn; pt <= kKing; ++pt) {
    set_bits(planes, plane::kMyPieces + pt, pos.pieces(me, PieceType(pt)), flip);
    set_bits(planes, plane::kTheirPieces + pt, pos.pieces(you, PieceType(pt)), flip);
  }
  if (input.repetitions >= 1) fill_plane(planes, plane::kRepetition, 1.0f);
  if (input.repetitions >= 2) fill_plane(planes, plane::kRepetition + 1, 1.0f);

  const float pocket_scale = normalize ? 1.0f / kMaxPocketCount : 1.0f;
  for (int pt = kPawn; pt <= kQueen; ++pt) {
    const int mine = pos.pocket(me, PieceType(pt));
    const int theirs = pos.pocket(you, PieceType(pt));
    if (mine) fill_plane(planes, plane::kMyPocket + pt, static_cast<float>(mine) * pocket_scale);
    if (theirs)
      fill_plane(planes, plane::kTheirPocket + pt, static_cast<float>(theirs) * pocket_scale);
  }

  set_bits(planes, plane::kMyPromoted, pos.promoted() & pos.pieces(me), flip);
  set_bits(planes, plane::kTheirPromoted, pos.promoted() & pos.pieces(you), flip);
  if (pos.ep_square() != kNoSquare)
    set_bits(planes, plane::kEnPassant, square_bb(pos.ep_square()), flip);
  if (me == kWhite) fill_plane(planes, plane::kColor, 1.0f);

  const float fullmoves = static_cast<float>(pos.fullmove_number());
  fill_plane(planes, plane::kMoveCount, normalize ? fullmoves / kMaxFullmoves : fullmoves);

  const unsigned my_oo = me == kWhite ? kWhiteOO : kBlackOO;
  const unsigned my_ooo = me == kWhite ? kWhiteOOO : kBlackOOO;
  const unsigned their_oo = me == kWhite ? kBlackOO : kWhiteOO;
  const unsigned their_ooo = me == kWhite ? kBlackOOO : kWhiteOOO;
  if (pos.can_castle(my_oo)) fill_plane(planes, plane::kCastling + 0, 1.0f);
  if (pos.can_castle(my_ooo)) fill_plane(planes, plane::kCastling + 1, 1.0f);
  if (pos.can_castle(their_oo)) fill_plane(planes, plane::kCastling + 2, 1.0f);
  if (pos.can_castle(their_ooo)) fill_plane(planes, plane::kCastling + 3, 1.0f);

  const float halfmoves = static_cast<float>(pos.halfmove_clock());
  if (halfmoves > 0.0f)
    fill_plane(planes, plane::kNoProgress, normalize ? halfmoves / kMaxNoProgress : halfmoves);
  if (format == InputFormat::kV2) encode_v2_extra(input, planes, flip);
}

void encode_batch(std::span<const EvalInput> inputs, std::span<float> out, InputFormat format) {
  const std::size_t size = std::size_t(input_size(format));
  assert(out.size() >= inputs.size() * size);
  for (std::size_t i = 0; i < inputs.size(); ++i)
    encode_position(inputs[i], out.subspan(i * size, size), true, format);
}

}  // namespace zh
