#include "engine/datagen/record_format.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace zh::datagen {

namespace {
constexpr std::array<PlaneKind, kMaxInputPlanes> kPlaneKinds = [] {
  std::array<PlaneKind, kMaxInputPlanes> k{};
  k.fill(PlaneKind::kConstant);
  for (int p = 0; p < 12; ++p) k[p] = PlaneKind::kMask;  // pieces
  k[plane::kMyPromoted] = PlaneKind::kMask;
  k[plane::kTheirPromoted] = PlaneKind::kMask;
  k[plane::kEnPassant] = PlaneKind::kMask;
  for (int first : {plane::kLastMove, plane::kMyLastMove}) {  // from, to; the drop flag
    k[first] = PlaneKind::kMask;
    k[first + 1] = PlaneKind::kMask;
  }
  k[plane::kCheckers] = PlaneKind::kMask;
  return k;
}();
static_assert(std::count(kPlaneKinds.begin(), kPlaneKinds.begin() + kInputPlanesV1,
                         PlaneKind::kMask) == kMaskPlanes);
static_assert(std::count(kPlaneKinds.begin(), kPlaneKinds.end(), PlaneKind::kMask) ==
              kMaskPlanes + kExtraMaskPlanes);
}  // namespace

const std::array<PlaneKind, kMaxInputPlanes>& plane_kinds() { return kPlaneKinds; }

std::int32_t encode_score(int cp, int mate) {
  if (mate > 0) return kMateScore - mate;
  if (mate < 0) return -kMateScore - mate;
  return std::clamp(cp, -(kMateScore - 1000), kMateScore - 1000);
}

namespace {
std::uint8_t& kind_byte(ShardHeader& h, int plane) {
  return plane < kInputPlanes ? h.plane_kind[plane] : h.plane_kind_more[plane - kInputPlanes];
}
}  // namespace

ShardHeader make_header(std::uint64_t record_count, float policy_temperature_cp,
                        InputFormat format) {
  ShardHeader h{};
  std::memcpy(h.magic, kShardMagic, sizeof h.magic);
  h.format_version = format_version_of(format);
  h.record_size = record_size_of(format);
  h.record_count = record_count;
  std::strncpy(h.input_version, input_version(format), sizeof h.input_version);
  for (int p = 0; p < input_planes(format); ++p) kind_byte(h, p) = std::uint8_t(plane_kinds()[p]);
  h.policy_slots = kPolicySlots;
  h.policy_temperature_cp = policy_temperature_cp;
  h.input_planes = std::uint32_t(input_planes(format));
  return h;
}

InputFormat check_header(const ShardHeader& header, std::string_view source) {
  const std::string where(source);
  ShardHeader h = header;
  if (std::memcmp(h.magic, kShardMagic, sizeof h.magic) != 0)
    throw FormatError(where + ": not a zhbot training shard (bad magic at offset 0)");
  if (h.format_version != 1 && h.format_version != 2)
    throw FormatError(where + ": record format version " + std::to_string(h.format_version) +
                      ", this build reads versions 1 and 2");
  const InputFormat format = h.format_version == 1 ? InputFormat::kV1 : InputFormat::kV2;
  if (h.record_size != record_size_of(format))
    throw FormatError(where + ": record size " + std::to_string(h.record_size) + ", expected " +
                      std::to_string(record_size_of(format)));
  const std::string version(h.input_version, strnlen(h.input_version, sizeof h.input_version));
  if (version != input_version(format) || h.input_planes != std::uint32_t(input_planes(format)))
    throw FormatError(where + ": input format " + version + " with " +
                      std::to_string(h.input_planes) + " planes in record format version " +
                      std::to_string(h.format_version) + ", which holds " + describe(format));
  for (int p = 0; p < input_planes(format); ++p)
    if (kind_byte(h, p) != std::uint8_t(plane_kinds()[p]))
      throw FormatError(where + ": plane " + std::to_string(p) + " has another kind");
  if (h.policy_slots != kPolicySlots)
    throw FormatError(where + ": " + std::to_string(h.policy_slots) + " policy slots, expected " +
                      std::to_string(kPolicySlots));
  return format;
}

namespace {
// Where the mask (constant) plane number `index`, counted in plane order, is stored.
template <class R>
auto& mask_slot(R& r, int index) {
  return index < kMaskPlanes ? r.masks[index] : r.extra_masks[index - kMaskPlanes];
}
template <class R>
auto& constant_slot(R& r, int index) {
  return index < kConstantPlanes ? r.constants[index] : r.extra_constants[index - kConstantPlanes];
}
}  // namespace

void pack_planes(std::span<const float> planes, Record& record) {
  if (planes.size() < std::size_t(input_size(InputFormat::kV2)))
    throw std::logic_error("pack_planes: short input");
  int mask = 0, constant = 0;
  for (int p = 0; p < kMaxInputPlanes; ++p) {
    const float* v = planes.data() + p * kPlaneSquares;
    if (plane_kinds()[p] == PlaneKind::kMask) {
      std::uint64_t bits = 0;
      for (int s = 0; s < kPlaneSquares; ++s) {
        if (v[s] == 1.0f)
          bits |= std::uint64_t(1) << s;
        else if (v[s] != 0.0f)
          throw std::logic_error("record format: plane " + std::to_string(p) +
                                 " is not binary (value " + std::to_string(v[s]) + ")");
      }
      mask_slot(record, mask++) = bits;
    } else {
      if (!std::all_of(v, v + kPlaneSquares, [&](float x) { return x == v[0]; }))
        throw std::logic_error("record format: plane " + std::to_string(p) + " is not constant");
      constant_slot(record, constant++) = v[0];
    }
  }
}

void unpack_planes(const Record& record, std::span<float> planes, InputFormat format) {
  if (planes.size() < std::size_t(input_size(format)))
    throw std::logic_error("unpack_planes: short output");
  int mask = 0, constant = 0;
  for (int p = 0; p < input_planes(format); ++p) {
    float* v = planes.data() + p * kPlaneSquares;
    if (plane_kinds()[p] == PlaneKind::kMask) {
      const std::uint64_t bits = mask_slot(record, mask++);
      for (int s = 0; s < kPlaneSquares; ++s) v[s] = (bits >> s) & 1 ? 1.0f : 0.0f;
    } else {
      std::fill_n(v, kPlaneSquares, constant_slot(record, constant++));
    }
  }
}

EvalInput eval_input_of(const Record& record) {
  // The first two constant planes are the repetition planes (>= 1, >= 2 earlier occurrences).
  EvalInput input{Position::from_fen(fen_of(record)),
                  record.constants[1] > 0 ? 2 : (record.constants[0] > 0 ? 1 : 0)};
  input.last_moves = {Move::from_raw(record.last_moves[0]), Move::from_raw(record.last_moves[1])};
  return input;
}

void set_policy(std::span<const ScoredMove> moves, float temperature_cp, Record& record) {
  if (moves.empty()) throw std::logic_error("set_policy: no move");
  const int n = std::min<int>(int(moves.size()), kPolicySlots);
  // Mates count as a large but finite margin, so a mate and a winning line still share weight
  // according to the temperature rather than one of them taking everything by overflow.
  auto as_cp = [](std::int32_t s) { return double(std::clamp(s, -3000, 3000)); };
  double weights[kPolicySlots] = {};
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    weights[i] = temperature_cp > 0
                     ? std::exp((as_cp(moves[i].score) - as_cp(moves[0].score)) / temperature_cp)
                     : (i == 0 ? 1.0 : 0.0);
    total += weights[i];
  }
  for (int i = 0; i < kPolicySlots; ++i) {
    record.policy_index[i] = i < n ? std::uint16_t(moves[i].policy_index) : 0;
    record.pv_score[i] = i < n ? moves[i].score : 0;
    record.policy_prob[i] = i < n ? float(weights[i] / total) : 0.0f;
  }
  record.pv_count = std::uint8_t(n);
}

void set_fen(std::string_view fen, Record& record) {
  if (fen.size() >= sizeof record.fen)
    throw FormatError("FEN longer than " + std::to_string(sizeof record.fen - 1) + " bytes");
  std::memset(record.fen, 0, sizeof record.fen);
  std::memcpy(record.fen, fen.data(), fen.size());
}

std::string fen_of(const Record& record) {
  return std::string(record.fen, strnlen(record.fen, sizeof record.fen));
}

}  // namespace zh::datagen
