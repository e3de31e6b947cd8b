#pragma once
// The network input: CrazyAra's input representation version 1.0, 34 planes of 8x8 floats
// (paper Table 1; docs/network-io.md), so networks trained for that format work here. Layout
// NCHW, square index a1 = 0 .. h8 = 63 within a plane. Planes are seen from the side to move ("my"
// first) and flipped vertically (rank r -> 9 - r) when black is to move; nothing is mirrored
// left-right.

#include <span>

#include "engine/nn/evaluator.h"
#include "engine/nn/input_format.h"

namespace zh {

inline constexpr int kInputPlanes = kInputPlanesV1;  // format 1.0
inline constexpr int kPlaneSquares = 64;
inline constexpr int kInputSize = kInputPlanes * kPlaneSquares;  // floats per position
// The version string a model declares in its metadata to be fed these planes.
inline constexpr const char* kInputVersion = "1.0";

// First plane of each group.
namespace plane {
inline constexpr int kMyPieces = 0;      // P N B R Q K
inline constexpr int kTheirPieces = 6;   // P N B R Q K
inline constexpr int kRepetition = 12;   // >= 1, >= 2 earlier occurrences (planes of ones)
inline constexpr int kMyPocket = 14;     // P N B R Q counts / 32
inline constexpr int kTheirPocket = 19;  // P N B R Q counts / 32
inline constexpr int kMyPromoted = 24;
inline constexpr int kTheirPromoted = 25;
inline constexpr int kEnPassant = 26;   // the target square, when a capture is legal
inline constexpr int kColor = 27;       // ones when white is to move
inline constexpr int kMoveCount = 28;   // fullmove number / 500
inline constexpr int kCastling = 29;    // my O-O, my O-O-O, their O-O, their O-O-O
inline constexpr int kNoProgress = 33;  // halfmove clock / 40
// Format 2.0 adds, after the 34 planes above:
inline constexpr int kLastMove = 34;      // from, to, drop (ones) of the move that led here
inline constexpr int kMyLastMove = 37;    // from, to, drop of the move before it (mine)
inline constexpr int kCheckers = 40;      // the pieces giving check to the side to move
inline constexpr int kMaterialDiff = 41;  // P N B R Q: (mine - theirs, board + pocket) / 8
}  // namespace plane

// Normalisation constants of CrazyAra's crazyhouse mode.
inline constexpr float kMaxPocketCount = 32.0f;
inline constexpr float kMaxFullmoves = 500.0f;
inline constexpr float kMaxNoProgress = 40.0f;
inline constexpr float kMaterialScale = 8.0f;

// Writes the planes of `input` into out[0 .. input_size(format)). `normalize = false` leaves
// the counts raw (pocket counts, fullmove number, halfmove clock), which is only useful to
// compare with CrazyAra's published plane statistics; networks always get normalised planes.
void encode_position(const EvalInput& input, std::span<float> out, bool normalize = true,
                     InputFormat format = InputFormat::kV1);

// Encodes inputs.size() positions back to back (out.size() >= inputs.size() * input_size).
void encode_batch(std::span<const EvalInput> inputs, std::span<float> out,
                  InputFormat format = InputFormat::kV1);

}  // namespace zh
