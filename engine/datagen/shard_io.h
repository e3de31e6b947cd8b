#pragma once
// Reading and writing shards (engine/datagen/record_format.h). A shard is written under a
// temporary name and renamed when complete, so a crash or Ctrl-C never leaves a truncated
// file under a shard's name; a new run adds shards after the highest number present and
// never overwrites one. A shard is also closed once it has been open `max_age`, so a run cut
// off (a session's end on a slow machine) loses at most that much of its work.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "engine/datagen/record_format.h"
#include "engine/util/clock.h"

namespace zh::datagen {

inline constexpr const char* kShardSuffix = ".zhrec";

class ShardWriter {
 public:
  // Shards are named <dir>/<prefix>-NNNNNN.zhrec; `records_per_shard`, or a shard open for
  // `max_age` (0: no limit), closes one and opens the next (a game is never split between
  // shards). The records are written in record format version format_version_of(format).
  ShardWriter(std::filesystem::path dir, std::string prefix, std::size_t records_per_shard,
              float policy_temperature_cp, Millis max_age = Millis(0),
              Clock& clock = steady_clock(), InputFormat format = InputFormat::kV1);
  ~ShardWriter();  // closes the open shard
  ShardWriter(const ShardWriter&) = delete;
  ShardWriter& operator=(const ShardWriter&) = delete;

  // Appends the records of one game. Thread-safe.
  void add_game(std::span<const Record> records);
  // Completes the open shard (header count, fsync, rename). Idempotent.
  void close();

  std::uint64_t records_written() const;
  std::vector<std::filesystem::path> shards_written() const;

 private:
  void open_next();
  void finish_current();

  std::filesystem::path dir_;
  std::string prefix_;
  std::size_t per_shard_;
  float temperature_;
  Millis max_age_;
  Clock& clock_;
  InputFormat format_;
  mutable std::mutex mutex_;
  TimePoint opened_at_{};
  std::ofstream out_;
  std::filesystem::path tmp_path_, final_path_;
  std::uint64_t in_current_ = 0;
  std::uint64_t total_ = 0;
  int next_number_ = 0;
  std::vector<std::filesystem::path> written_;
};

// Reads a whole shard (either version; a version-1 record's fields of version 2 are zero);
// throws FormatError naming the file (and the offset where it is short).
std::vector<Record> read_shard(const std::filesystem::path& path);
ShardHeader read_shard_header(const std::filesystem::path& path);

// Writes `records` as one complete shard at `path` through a temporary name; an existing file
// there is refused (FormatError).
void write_shard(const std::filesystem::path& path, std::span<const Record> records,
                 float policy_temperature_cp, InputFormat format);

// Reads shard bytes already in memory (the fuzz target and tests).
std::vector<Record> parse_shard(std::span<const std::uint8_t> bytes, const std::string& source);

// Every *.zhrec file under dir, sorted by name.
std::vector<std::filesystem::path> list_shards(const std::filesystem::path& dir);

}  // namespace zh::datagen
