#pragma once
// `zhbot datagen --import`: positions already labelled by a teacher, one JSON object a line
// ({"g": game id, "ply", "fen", "best": UCI, "cp" or "mate" for the side to move,
// "result": "1-0" | "0-1" | "1/2-1/2"}; a .gz file is read through gzip), turned into the
// same shards with planes from the same encoder. A game's positions come in order, so the
// repetition planes count the game's earlier positions. Bad lines are counted and reported.

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "engine/datagen/shard_io.h"

namespace zh::datagen {

struct ImportReport {
  std::int64_t lines = 0;
  std::int64_t records = 0;
  std::int64_t games = 0;
  std::int64_t bad_json = 0;          // not JSON, or a field missing / of the wrong type
  std::int64_t bad_fen = 0;           // FEN that does not parse
  std::int64_t illegal_move = 0;      // teacher move not legal in the FEN
  std::int64_t bad_result = 0;        // result not one of the three
  std::vector<std::string> examples;  // the first few bad lines, with their line numbers
  std::int64_t bad() const { return bad_json + bad_fen + illegal_move + bad_result; }
};

ImportReport import_jsonl(const std::filesystem::path& file, ShardWriter& writer,
                          std::ostream& log);
void print_report(const ImportReport& report, std::ostream& out);

}  // namespace zh::datagen
