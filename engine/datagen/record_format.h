#pragma once
// The training-record format: what `zhbot datagen` writes and training/records.py reads (spec:
// training/README.md). A shard is a 128-byte header followed by fixed-size records, all
// little-endian, so Python can memory-map it as one numpy array. Version 1 holds input format
// 1.0 (34 planes) in 440-byte records; version 2 holds input format 2.0 (46 planes): the
// same 440 bytes, then the 12 planes more and the last two moves, 512 bytes. A record in
// memory always holds everything (format 2.0's planes, whose first 34 are format 1.0's); a
// version-1 shard keeps its first 440 bytes.
//
// The input planes are the engine encoder's output (engine/nn/encoder.h), stored exactly:
// a plane the encoder fills with 0/1 per square is a 64-bit mask (bit s = square s of the
// plane), a plane it fills with one value everywhere is that float. Which plane is which is
// written into the header (plane_kind), so a reader expands planes without knowing the
// encoder or any normalisation constant.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/nn/encoder.h"

namespace zh::datagen {

inline constexpr char kShardMagic[8] = {'Z', 'H', 'B', 'O', 'T', 'R', 'E', 'C'};
inline constexpr int kHeaderSize = 128;
inline constexpr int kPolicySlots = 8;  // (index, probability) pairs a record can hold
inline constexpr int kMaskPlanes = 15;  // of format 1.0
inline constexpr int kConstantPlanes = 19;
inline constexpr int kExtraMaskPlanes = 5;  // format 2.0's planes after the first 34
inline constexpr int kExtraConstantPlanes = 7;
inline constexpr int kFenBytes = 144;  // longer than any legal crazyhouse FEN

// The record format version that holds an input format, and its record size.
constexpr std::uint32_t format_version_of(InputFormat f) { return f == InputFormat::kV1 ? 1 : 2; }
constexpr std::uint32_t record_size_of(InputFormat f) { return f == InputFormat::kV1 ? 440 : 512; }

enum class PlaneKind : std::uint8_t { kMask = 0, kConstant = 1 };
// The kind of each input plane of format 2.0, in plane order (engine/nn/encoder.h); format
// 1.0's are the first 34.
const std::array<PlaneKind, kMaxInputPlanes>& plane_kinds();

// Scores in records: centipawns for the side to move, or a mate as +-(kMateScore - n) for
// "side to move mates in n" / "is mated in n" (n in moves, as UCI reports it).
inline constexpr std::int32_t kMateScore = 30000;
std::int32_t encode_score(int cp, int mate);  // mate != 0 wins over cp

// result: from the side to move's view.
inline constexpr std::int8_t kWin = 1, kDraw = 0, kLoss = -1;

// flags
inline constexpr std::uint16_t kFlagMoveNotTeacher = 1;  // the game went on with another move
inline constexpr std::uint16_t kFlagAdjudicated = 2;     // result adjudicated, not played out
inline constexpr std::uint16_t kFlagOwnGame = 4;         // from a game zhbot played (own_game.h)

struct Record {
  std::uint64_t masks[kMaskPlanes];          // the mask planes, in plane order
  std::uint64_t game_id;                     // positions of one game share it (split by game)
  float constants[kConstantPlanes];          // the constant planes, in plane order
  float policy_prob[kPolicySlots];           // policy target: probability of policy_index[i]
  std::int32_t pv_score[kPolicySlots];       // the teacher's score of that move (MultiPV)
  std::int32_t score;                        // the teacher's score of the position
  std::uint16_t policy_index[kPolicySlots];  // policy-map index; slot 0 = the teacher's move
  std::uint16_t ply;                         // half-moves played before this position
  std::uint16_t flags;
  std::uint8_t pv_count;  // slots in use (>= 1)
  std::int8_t result;     // the game's result for the side to move
  std::uint8_t reserved[2];
  char fen[kFenBytes];  // lichess FEN, NUL-padded (for debugging)
  // Version 2 only (a version-1 shard ends each record above):
  std::uint64_t extra_masks[kExtraMaskPlanes];  // format 2.0's mask planes after the 34th
  float extra_constants[kExtraConstantPlanes];  // its constant planes after the 34th
  std::uint16_t last_moves[2];                  // EvalInput::last_moves as Move::raw() (0: none)
};
static_assert(sizeof(Record) == 512, "record layout is part of the file format");
static_assert(offsetof(Record, extra_masks) == 440 && offsetof(Record, extra_constants) == 480 &&
              offsetof(Record, last_moves) == 508);
static_assert(offsetof(Record, game_id) == 120 && offsetof(Record, constants) == 128 &&
              offsetof(Record, policy_prob) == 204 && offsetof(Record, pv_score) == 236 &&
              offsetof(Record, score) == 268 && offsetof(Record, policy_index) == 272 &&
              offsetof(Record, ply) == 288 && offsetof(Record, flags) == 290 &&
              offsetof(Record, pv_count) == 292 && offsetof(Record, result) == 293 &&
              offsetof(Record, fen) == 296);

struct ShardHeader {
  char magic[8];
  std::uint32_t format_version;
  std::uint32_t record_size;
  std::uint64_t record_count;
  char input_version[8];                  // the shard's input format, "1.0" or "2.0", NUL-padded
  std::uint8_t plane_kind[kInputPlanes];  // planes 0..33
  std::uint8_t policy_slots;
  std::uint8_t reserved0;
  float policy_temperature_cp;  // how policy_prob was made from pv_score (0: one-hot)
  std::uint32_t input_planes;
  std::uint8_t plane_kind_more[30];  // version 2: planes 34..63 (0 in version 1)
  std::uint8_t reserved[22];
};
static_assert(sizeof(ShardHeader) == kHeaderSize && offsetof(ShardHeader, plane_kind_more) == 76);

ShardHeader make_header(std::uint64_t record_count, float policy_temperature_cp,
                        InputFormat format = InputFormat::kV1);
// The input format of a shard; throws FormatError naming `source` when the header is not one
// this build reads.
InputFormat check_header(const ShardHeader& header, std::string_view source);

class FormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Packs the encoder's planes of format 2.0 (input_size(kV2) floats) into the record. Throws
// std::logic_error when a plane breaks its kind (a mask plane with a value other than 0/1, a
// constant plane that is not constant): the encoder and this format disagree.
void pack_planes(std::span<const float> planes, Record& record);
// The inverse for `format` (input_size(format) floats): exactly what the encoder produced.
void unpack_planes(const Record& record, std::span<float> planes,
                   InputFormat format = InputFormat::kV1);

// The record's EvalInput: its FEN's position, the repetitions its planes show, its last moves.
EvalInput eval_input_of(const Record& record);

// Fills the policy slots from (index, score) pairs, best first: slot probabilities are a
// softmax of the scores in centipawns over `temperature_cp` (<= 0: all weight on slot 0).
struct ScoredMove {
  int policy_index;
  std::int32_t score;  // encode_score() form
};
void set_policy(std::span<const ScoredMove> moves, float temperature_cp, Record& record);

void set_fen(std::string_view fen, Record& record);  // throws FormatError when too long
std::string fen_of(const Record& record);

}  // namespace zh::datagen
