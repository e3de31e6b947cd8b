// Real Fairy-Stockfish teacher games at a tiny budget.
#include "engine/datagen/teacher_game.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "engine/datagen/datagen.h"
#include "engine/datagen/shard_io.h"
#include "engine/nn/policy_map.h"

namespace zh::datagen {
namespace {
namespace fs = std::filesystem;

bool have_teacher() { return fs::exists(TeacherConfig{}.path); }

TEST(TeacherGame, EveryPositionIsLabelledAndResultsAgreeWithTheEnd) {
  if (!have_teacher()) GTEST_SKIP() << "fairy-stockfish is not installed";
  TeacherConfig tc;
  tc.nodes = 200;
  UciTeacher teacher(tc);
  GameOptions go;
  go.max_plies = 60;
  SeenPositions seen;
  std::atomic<bool> stop{false};
  std::mt19937_64 rng(7);
  const PlayedGame g = play_teacher_game(teacher, 42, rng, go, seen, stop);
  ASSERT_FALSE(g.records.empty());
  EXPECT_LE(int(g.records.size()), g.plies);
  EXPECT_NE(g.outcome.result, GameResult::kOngoing);
  for (std::size_t i = 0; i < g.records.size(); ++i) {
    const Record& r = g.records[i];
    EXPECT_EQ(r.game_id, 42u);
    EXPECT_GE(r.pv_count, 1);
    float total = 0;
    for (int k = 0; k < r.pv_count; ++k) {
      total += r.policy_prob[k];
      EXPECT_LT(r.policy_index[k], kPolicySize);
    }
    EXPECT_NEAR(total, 1.0f, 1e-5);
    if (g.outcome.result != GameResult::kDraw) {
      EXPECT_NE(r.result, kDraw);
    }
    // Sides alternate, so consecutive plies of a decisive game have opposite results.
    if (i > 0 && r.ply == g.records[i - 1].ply + 1 && g.outcome.result != GameResult::kDraw) {
      EXPECT_EQ(r.result, -g.records[i - 1].result);
    }
  }
}

TEST(TeacherGame, StopLosesOnlyTheGameInFlight) {
  if (!have_teacher()) GTEST_SKIP() << "fairy-stockfish is not installed";
  UciTeacher teacher(TeacherConfig{});
  SeenPositions seen;
  std::atomic<bool> stop{true};
  std::mt19937_64 rng(1);
  EXPECT_TRUE(play_teacher_game(teacher, 1, rng, GameOptions{}, seen, stop).records.empty());
}

TEST(Datagen, TwoWorkersWriteWholeGamesWithoutDuplicates) {
  if (!have_teacher()) GTEST_SKIP() << "fairy-stockfish is not installed";
  const fs::path dir = fs::temp_directory_path() / ("zh-datagen-" + std::to_string(getpid()));
  fs::remove_all(dir);
  DatagenOptions o;
  o.teacher.nodes = 100;
  o.game.max_plies = 40;
  o.out = dir;
  o.workers = 2;
  o.games = 4;
  o.seed = 5;
  std::atomic<bool> stop{false};
  std::ostringstream log;
  const DatagenReport r = run_datagen(o, stop, log);
  EXPECT_EQ(r.games, 4);
  std::set<std::uint64_t> games;
  std::int64_t n = 0;
  for (const auto& s : list_shards(dir))
    for (const auto& rec : read_shard(s)) {
      games.insert(rec.game_id);
      ++n;
    }
  EXPECT_EQ(n, r.positions);
  EXPECT_EQ(games.size(), 4u);
  EXPECT_GE(r.duplicates_skipped, 3);  // the start position, after the first game
  std::ostringstream report;
  print_report(r, report);
  EXPECT_NE(report.str().find("labelled positions/s"), std::string::npos);
  fs::remove_all(dir);
}

// (game id, FEN) of every record under `dir`, sorted.
std::vector<std::pair<std::uint64_t, std::string>> records_in(const fs::path& dir) {
  std::vector<std::pair<std::uint64_t, std::string>> out;
  for (const auto& s : list_shards(dir))
    for (const auto& rec : read_shard(s)) out.emplace_back(rec.game_id, fen_of(rec));
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Datagen, ARunCutOffIsTakenUpAndEndsAsAnUncutRunWould) {
  if (!have_teacher()) GTEST_SKIP() << "fairy-stockfish is not installed";
  const fs::path base = fs::temp_directory_path() / ("zh-datagen-cut-" + std::to_string(getpid()));
  fs::remove_all(base);
  DatagenOptions o;
  o.teacher.nodes = 100;
  o.game.max_plies = 30;
  o.workers = 1;
  o.seed = 9;
  std::atomic<bool> stop{false};
  std::ostringstream log;

  o.out = base / "uncut";
  o.games = 4;
  run_datagen(o, stop, log);

  // The same work cut after two games, with the shard that was open at the cut left behind.
  o.out = base / "cut";
  o.games = 2;
  run_datagen(o, stop, log);
  std::ofstream(o.out / "teacher-000042.zhrec.tmp") << "half a shard";
  o.games = 4;
  std::ostringstream resumed_log;
  const DatagenReport r = run_datagen(o, stop, resumed_log);
  EXPECT_EQ(r.games, 2) << "played again what the folder held";
  EXPECT_EQ(r.games_before, 2);
  EXPECT_NE(resumed_log.str().find("taking up"), std::string::npos) << resumed_log.str();
  EXPECT_FALSE(fs::exists(o.out / "teacher-000042.zhrec.tmp"));
  // Game for game and position for position, what one run would have written.
  EXPECT_EQ(records_in(base / "cut"), records_in(base / "uncut"));

  // Taken up again with nothing missing: nothing is played.
  EXPECT_EQ(run_datagen(o, stop, log).games, 0);
  fs::remove_all(base);
}

TEST(Datagen, ADamagedShardIsNamedAndNothingIsPlayed) {
  const fs::path dir = fs::temp_directory_path() / ("zh-datagen-bad-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "teacher-000000.zhrec") << "not a shard";
  DatagenOptions o;
  o.out = dir;
  o.games = 1;
  o.teacher.path = "/nonexistent/teacher";  // never started: the folder is refused first
  std::atomic<bool> stop{false};
  std::ostringstream log;
  try {
    run_datagen(o, stop, log);
    ADD_FAILURE() << "a damaged shard was taken up";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("teacher-000000.zhrec"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace zh::datagen
