#pragma once
// Re-encoding a folder of shards into another input format without playing a game again:
// `zhbot datagen --reencode IN --out OUT --format 2.0`. A record keeps its FEN, game and ply,
// and its repetition planes; the last two moves (format 2.0) are recovered from the record one
// ply earlier in the same game: the legal move that leads from its position to this one. Where
// that record is missing (a position an earlier game already labelled is not written again),
// the record one ply earlier in any game of the folder whose move leads here stands in; a record
// with neither keeps its last moves unknown (null, as the encoder's "none") and is counted.

#include <cstdint>
#include <filesystem>

#include "engine/nn/input_format.h"

namespace zh::datagen {

struct ReencodeReport {
  std::int64_t shards = 0;
  std::int64_t records = 0;
  std::int64_t recovered = 0;  // records whose last move was recovered
  std::int64_t unknown = 0;    // records past ply 0 whose last move was not
};

// Writes every shard of `in` under the same name in `out` (created; an existing shard there
// is refused) in `format`. Throws FormatError for a damaged shard, or one whose stored planes
// differ from what this build's encoder makes of its FEN (another encoder made it).
ReencodeReport reencode(const std::filesystem::path& in, const std::filesystem::path& out,
                        InputFormat format);

}  // namespace zh::datagen
