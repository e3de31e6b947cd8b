// Own games (engine/datagen/own_game.h): zhbot with the uniform backend against real
// Fairy-Stockfish at tiny budgets, labelled by the real teacher.
#include "engine/datagen/own_game.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <sstream>

#include "engine/datagen/datagen.h"
#include "engine/datagen/shard_io.h"

namespace zh::datagen {
namespace {
namespace fs = std::filesystem;

bool have_teacher() { return fs::exists(TeacherConfig{}.path); }

OwnGameOptions uniform_zhbot() {
  OwnGameOptions o;
  o.enabled = true;
  o.engine_options = {"backend=uniform"};
  o.nodes = 30;
  o.opponent_nodes = 100;
  return o;
}

TEST(OwnGame, SkillLevelsCycleByGameAndZhbotChangesColourEachPass) {
  if (!have_teacher()) GTEST_SKIP() << "fairy-stockfish is not installed";
  OwnGameOptions o = uniform_zhbot();
  o.skill_levels = {3, 8};
  OwnGamePlayers players(o, TeacherConfig{}, load_own_game_evaluator(o));
  EXPECT_EQ(players.skill_of(0), 3);
  EXPECT_EQ(players.skill_of(1), 8);
  EXPECT_EQ(players.skill_of(2), 3);
  EXPECT_NE(players.opponent_of(0), players.opponent_of(1));
  EXPECT_EQ(players.opponent_of(0), players.opponent_of(2));
  // Each level meets zhbot with white, then with black.
  EXPECT_TRUE(players.zhbot_is_white(0) && players.zhbot_is_white(1));
  EXPECT_FALSE(players.zhbot_is_white(2) || players.zhbot_is_white(3));
  OwnGameOptions self = uniform_zhbot();
  OwnGamePlayers alone(self, TeacherConfig{}, load_own_game_evaluator(self));
  EXPECT_EQ(alone.opponent_of(0), nullptr);
}

TEST(OwnGame, EveryPositionIsLabelledAndFlaggedAsOwnGame) {
  if (!have_teacher()) GTEST_SKIP() << "fairy-stockfish is not installed";
  const fs::path dir = fs::temp_directory_path() / ("zh-own-games-" + std::to_string(getpid()));
  fs::remove_all(dir);
  DatagenOptions o;
  o.own = uniform_zhbot();
  o.own.skill_levels = {0, 5};
  o.teacher.nodes = 100;
  o.game.max_plies = 40;
  o.out = dir;
  o.prefix = "own";
  o.workers = 2;
  o.games = 4;
  o.seed = 11;
  std::atomic<bool> stop{false};
  std::ostringstream log;
  const DatagenReport r = run_datagen(o, stop, log);
  EXPECT_EQ(r.games, 4);
  std::set<std::uint64_t> games;
  std::int64_t n = 0, not_teacher = 0;
  for (const auto& shard : list_shards(dir)) {
    EXPECT_EQ(shard.filename().string().rfind("own-", 0), 0u) << shard;
    for (const Record& rec : read_shard(shard)) {
      EXPECT_TRUE(rec.flags & kFlagOwnGame);
      EXPECT_GE(rec.pv_count, 1);
      EXPECT_LE(std::abs(int(rec.result)), 1);
      not_teacher += (rec.flags & kFlagMoveNotTeacher) != 0;
      games.insert(rec.game_id);
      ++n;
    }
  }
  EXPECT_EQ(n, r.positions);
  EXPECT_EQ(games.size(), 4u);
  // A uniform-prior zhbot at 30 nodes and Skill Level 0 rarely play the teacher's move.
  EXPECT_GT(not_teacher, n / 4);
  fs::remove_all(dir);
}

TEST(OwnGame, BadOptionsAreRefusedByName) {
  auto error_of = [](OwnGameOptions o) -> std::string {
    try {
      check_own_game_options(o);
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  };
  OwnGameOptions o = uniform_zhbot();
  EXPECT_EQ(error_of(o), "");
  o.nodes = 0;
  EXPECT_NE(error_of(o).find("--zhbot-nodes"), std::string::npos);
  o = uniform_zhbot();
  o.skill_levels = {5, 21};
  EXPECT_NE(error_of(o).find("21 is not a Fairy-Stockfish Skill Level"), std::string::npos);
  o = uniform_zhbot();
  o.temperature = 0;
  EXPECT_NE(error_of(o).find("--zhbot-temperature"), std::string::npos);
  o = uniform_zhbot();
  o.opponent_nodes = 0;
  EXPECT_NE(error_of(o).find("--opponent-nodes"), std::string::npos);
  o = uniform_zhbot();
  o.engine_options = {"backend"};
  EXPECT_NE(error_of(o).find("NAME=VALUE"), std::string::npos);
  o.engine_options = {"no_such_option=1"};
  EXPECT_NE(error_of(o).find("no_such_option"), std::string::npos);
}

}  // namespace
}  // namespace zh::datagen
