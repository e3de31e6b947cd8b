#include "engine/datagen/earlier_work.h"

#include "engine/chess/position.h"
#include "engine/datagen/shard_io.h"
#include "engine/nn/encoder.h"

namespace zh::datagen {
namespace fs = std::filesystem;

namespace {

// Where the repetition planes sit among a record's constant planes.
int constant_slot(int plane_index) {
  int slot = 0;
  for (int p = 0; p < plane_index; ++p) slot += plane_kinds()[p] == PlaneKind::kConstant;
  return slot;
}

bool named_for(const fs::path& path, const std::string& prefix, const std::string& suffix) {
  const std::string name = path.filename().string();
  return name.size() > prefix.size() + 1 + suffix.size() && name.rfind(prefix + "-", 0) == 0 &&
         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::uint64_t seen_key_of(const Record& record) {
  static const int first = constant_slot(plane::kRepetition);
  const int repetitions = (record.constants[first] > 0.5f) + (record.constants[first + 1] > 0.5f);
  return seen_key(Position::from_fen(fen_of(record)).key(), repetitions);
}

EarlierWork take_up_earlier_work(const fs::path& dir, const std::string& prefix,
                                 SeenPositions& seen, InputFormat format) {
  EarlierWork work;
  if (!fs::is_directory(dir)) return work;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (named_for(entry.path(), prefix, std::string(kShardSuffix) + ".tmp")) {
      fs::remove(entry.path());
      ++work.temporary_removed;
    }
  }
  for (const fs::path& shard : list_shards(dir)) {
    if (!named_for(shard, prefix, kShardSuffix)) continue;
    const InputFormat held = check_header(read_shard_header(shard), shard.string());
    if (held != format)
      throw FormatError(shard.string() + " holds input " + describe(held) + "; this run writes " +
                        describe(format) + ": one folder holds one format");
    for (const Record& record : read_shard(shard)) {
      work.game_ids.insert(record.game_id);
      try {
        seen.mark(seen_key_of(record));
      } catch (const FenError& e) {
        throw FormatError(shard.string() + ": a record's FEN cannot be read (" + e.what() + ")");
      }
      ++work.positions;
    }
    ++work.shards;
  }
  return work;
}

}  // namespace zh::datagen
