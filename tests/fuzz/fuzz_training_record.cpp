// Training-record shards (engine/datagen): files another machine wrote, read back by `zhbot`
// tools. Either the bytes are refused with FormatError, or every record unpacks: its planes,
// and its FEN prints (and, when it parses, gives a position).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/chess/position.h"
#include "engine/datagen/record_format.h"
#include "engine/datagen/shard_io.h"
#include "engine/nn/encoder.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<zh::datagen::Record> records;
  try {
    records = zh::datagen::parse_shard(std::span<const std::uint8_t>(data, size), "fuzz.zhrec");
  } catch (const zh::datagen::FormatError&) {
    return 0;
  }
  // A record in memory holds every format's planes (a version-1 record's extra ones are zero).
  std::vector<float> planes(zh::input_size(zh::InputFormat::kV2));
  for (const auto& record : records) {
    zh::datagen::unpack_planes(record, planes, zh::InputFormat::kV2);
    try {
      (void)zh::Position::from_fen(zh::datagen::fen_of(record));
    } catch (const zh::FenError&) {
    }
  }
  return 0;
}
