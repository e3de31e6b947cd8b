#pragma once
// `zhbot datagen`: K workers, each with its own teacher process, play teacher games (or own
// games: zhbot plays, the teacher labels; engine/datagen/own_game.h; or label recorded games,
// engine/datagen/recorded_games.h) and write
// their labelled positions into shards until a position or game count is reached or `stop`
// is set (Ctrl-C). Only whole games are written. A folder that holds an earlier run's shards
// is taken up (engine/datagen/earlier_work.h): its games and positions count toward the
// targets, and only the games still missing are played.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "engine/datagen/own_game.h"
#include "engine/datagen/recorded_games.h"
#include "engine/datagen/teacher_game.h"
#include "engine/datagen/uci_teacher.h"

namespace zh::datagen {

struct DatagenOptions {
  TeacherConfig teacher;
  GameOptions game;
  OwnGameOptions own;  // enabled: zhbot plays (own_game.h), the teacher labels
  // Set: these games are labelled, each once, in order (recorded_games.h); nothing is played.
  std::optional<std::vector<RecordedGame>> recorded;
  std::filesystem::path out;
  std::string prefix = "teacher";
  InputFormat format = InputFormat::kV1;  // of the shards written (record_format.h)
  int workers = 1;
  std::int64_t positions = 0;  // stop after this many records (0: no limit)
  std::int64_t games = 0;      // stop after this many games (0: no limit)
  std::uint64_t seed = 1;
  std::size_t shard_records = 20000;
  double shard_minutes = 10.0;  // a shard open this long is closed (0: no limit)
  double progress_seconds = 10.0;
};

struct DatagenReport {
  std::int64_t games = 0;
  std::int64_t positions = 0;
  std::int64_t duplicates_skipped = 0;
  std::int64_t games_lost = 0;  // abandoned: teacher errors, Ctrl-C
  std::int64_t teacher_restarts = 0;
  std::int64_t ignored_lines = 0;
  std::int64_t adjudicated = 0;
  std::int64_t decisive = 0;
  double seconds = 0.0;
  double teacher_seconds = 0.0;  // summed over workers: time the teachers spent searching
  int workers = 0;
  std::int64_t shards = 0;
  std::int64_t games_before = 0;  // taken up from the folder (not played by this run)
  std::int64_t positions_before = 0;
};

DatagenReport run_datagen(const DatagenOptions& options, const std::atomic<bool>& stop,
                          std::ostream& log);

// The summary lines printed at the end (positions/s next to the teacher's own rate).
void print_report(const DatagenReport& report, std::ostream& out);

}  // namespace zh::datagen
