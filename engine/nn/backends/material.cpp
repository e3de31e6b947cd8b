#include "engine/nn/backends/material.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "engine/nn/backends/builtin_backends.h"

namespace zh {
namespace {

// Pawn units. Pieces in hand are worth a little more than on the board in crazyhouse (they
// can be dropped where they hurt), except queens whose board value already dominates.
constexpr float kBoardValue[kPieceTypes] = {1.0f, 3.0f, 3.0f, 5.0f, 9.0f, 0.0f};
constexpr float kPocketValue[kPocketTypes] = {1.3f, 3.3f, 3.2f, 5.2f, 9.0f};
// A promoted piece falls back to a pawn when captured, so it is worth less than it looks.
constexpr float kPromotedDiscount = 0.6f;
// Squash scale: a 4-pawn lead maps to tanh(0.5) ~ 0.46.
constexpr float kValueScale = 8.0f;

Bitboard king_zone(Square k) {
  Bitboard zone = square_bb(k);
  const int f = file_of(k), r = rank_of(k);
  for (int df = -1; df <= 1; ++df)
    for (int dr = -1; dr <= 1; ++dr) {
      const int nf = f + df, nr = r + dr;
      if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) zone |= square_bb(make_square(nf, nr));
    }
  return zone;
}

int chebyshev(Square a, Square b) {
  return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}

float material(const Position& pos, Color c) {
  float sum = 0.0f;
  for (int pt = kPawn; pt <= kQueen; ++pt) {
    const Bitboard bb = pos.pieces(c, PieceType(pt));
    const int promoted = popcount(bb & pos.promoted());
    sum += kBoardValue[pt] * static_cast<float>(popcount(bb) - promoted);
    sum += kBoardValue[pt] * kPromotedDiscount * static_cast<float>(promoted);
    sum += kPocketValue[pt] * static_cast<float>(pos.pocket(c, PieceType(pt)));
  }
  return sum;
}

// How exposed c's king is: enemy attacks into its zone, and empty zone squares the enemy
// could drop on when it holds pieces.
float king_danger(const Position& pos, Color c) {
  const Color them = ~c;
  const Bitboard zone = king_zone(pos.king_square(c));
  const Bitboard occ = pos.pieces();
  float danger = 0.0f;
  int in_hand = 0;
  for (int pt = kPawn; pt <= kQueen; ++pt) in_hand += pos.pocket(them, PieceType(pt));
  for (Bitboard b = zone; b;) {
    const Square s = pop_lsb(b);
    const int attackers = popcount(pos.attackers_to(s, occ, them));
    const bool defended = (pos.attackers_to(s, occ, c) & ~pos.pieces(c, kKing)) != 0;
    danger += 0.35f * static_cast<float>(attackers);
    if (in_hand > 0 && !(occ & square_bb(s)) && !defended) danger += 0.15f;
  }
  danger *= 1.0f + 0.1f * static_cast<float>(std::min(in_hand, 10));
  return danger;
}

}  // namespace

MaterialEvaluator::MaterialEvaluator(float prior_temperature)
    : inv_temperature_(1.0f / prior_temperature) {}

float MaterialEvaluator::value_of(const Position& pos) {
  const Color us = pos.side_to_move();
  const float score =
      material(pos, us) - material(pos, ~us) + king_danger(pos, ~us) - king_danger(pos, us);
  return std::tanh(score / kValueScale);
}

void MaterialEvaluator::evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) {
  assert(inputs.size() == outputs.size());
  MoveList moves;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Position& pos = inputs[i].position;
    Evaluation& out = outputs[i];
    out.priors.clear();
    pos.legal_moves(moves);
    if (moves.empty()) {
      out.value = pos.in_check() ? -1.0f : 0.0f;  // mated, or stalemated (a draw)
      continue;
    }
    out.value = value_of(pos);
    const Square their_king = pos.king_square(~pos.side_to_move());
    float total = 0.0f;
    out.priors.reserve(moves.size());
    for (Move m : moves) {
      float w = 1.0f;
      if (pos.gives_check(m)) w += 2.0f;
      if (pos.is_capture(m)) {
        const Piece victim = pos.piece_on(m.to());
        w += 1.0f + (victim == kNoPiece ? 1.0f : kBoardValue[type_of(victim)]) / 3.0f;
      }
      if (m.is_promotion()) w += m.piece() == kQueen ? 2.0f : 0.2f;
      if (m.is_drop() && chebyshev(m.to(), their_king) <= 2) w += 1.0f;
      w = std::pow(w, inv_temperature_);
      out.priors.push_back({m, w});
      total += w;
    }
    for (MovePrior& p : out.priors) p.prior /= total;
  }
}

BackendRegistration material_backend() {
  BackendRegistration b;
  b.name = "material";
  b.priority = 30;  // where no network backend is linked, the default
  b.weightless = true;
  b.make = [](const EvaluatorConfig& config, BackendOptions&) -> std::unique_ptr<Evaluator> {
    return std::make_unique<MaterialEvaluator>(config.prior_temperature);
  };
  return b;
}

}  // namespace zh
