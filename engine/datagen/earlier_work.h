#pragma once
// Taking up a datagen run that was cut off (a session's end, Ctrl-C, a crash): the complete
// shards it left in the output folder stay, and a run with the same seed plays only the games
// still missing. A game's moves depend only on the seed and its number, and every record
// carries its game's id, so the ids in the complete shards say which games are done; their
// positions are marked seen, so no position is labelled twice across the cut. The shard that was
// open at the cut (a temporary file: only whole shards are renamed into place) is removed, and
// its games are played again.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <unordered_set>

#include "engine/datagen/record_format.h"
#include "engine/datagen/teacher_game.h"

namespace zh::datagen {

struct EarlierWork {
  std::unordered_set<std::uint64_t> game_ids;  // games with records in complete shards
  std::int64_t positions = 0;
  std::size_t shards = 0;
  std::size_t temporary_removed = 0;  // the shards open at the cut
};

// Reads the complete shards named <prefix>-NNNNNN.zhrec under `dir` (none when it does not
// exist), marks their positions in `seen` and removes <prefix>-*.zhrec.tmp. A damaged shard
// throws FormatError naming it: the folder is then not taken up, and is made anew by its owner.
// A shard of another input format than `format` throws FormatError too. One datagen run a
// folder at a time.
EarlierWork take_up_earlier_work(const std::filesystem::path& dir, const std::string& prefix,
                                 SeenPositions& seen, InputFormat format = InputFormat::kV1);

// The key under which play_teacher_game marks a record's position seen (its FEN's position and
// the repetition planes: one or two earlier occurrences).
std::uint64_t seen_key_of(const Record& record);

}  // namespace zh::datagen
