#include "bot/state/state_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <mutex>
#include <sstream>
#include <vector>

#include "bot/logging/log_setup.h"

namespace zh::bot {
namespace {

namespace fs = std::filesystem;

class StateFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("zhbot-state-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    setup_logging(LogFormat::kText, "debug", [this](std::string_view line) {
      std::lock_guard lock(mutex_);
      log_ += std::string(line) + "\n";
    });
  }
  void TearDown() override {
    spdlog::set_default_logger(previous_);
    fs::remove_all(dir_);
  }
  void write(const std::string& text) {
    fs::create_directories(dir_);
    std::ofstream(dir_ / "state.json") << text;
  }
  std::string log() {
    std::lock_guard lock(mutex_);
    return log_;
  }

  fs::path dir_;
  std::shared_ptr<spdlog::logger> previous_ = spdlog::default_logger();
  std::mutex mutex_;
  std::string log_;
};

TEST_F(StateFileTest, SaveThenLoadGivesTheSameStateAndLeavesNoTemporaryFile) {
  StateFile file(dir_ / "nested");  // the directory is created on the first save
  const PersistentState state{{1700000000, 1700003600}, {}};
  ASSERT_TRUE(file.save(state));
  EXPECT_EQ(file.load(), state);
  EXPECT_FALSE(fs::exists(file.path().string() + ".tmp"));
  // Only the owner may read what the bot remembers.
  struct stat st {};
  ASSERT_EQ(::stat(file.path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 077, 0u);
}

TEST_F(StateFileTest, ASecondSaveReplacesTheFirst) {
  StateFile file(dir_);
  ASSERT_TRUE(file.save(PersistentState{{1, 2, 3}, {}}));
  ASSERT_TRUE(file.save(PersistentState{{4}, {}}));
  EXPECT_EQ(file.load(), (PersistentState{{4}, {}}));
}

TEST_F(StateFileTest, AMissingFileIsAFreshStartWithoutAWarning) {
  EXPECT_EQ(StateFile(dir_).load(), PersistentState{});
  EXPECT_EQ(log().find("[warning]"), std::string::npos) << log();
}

TEST_F(StateFileTest, ACorruptFileIsAWarningAndAFreshStartAndIsKeptAside) {
  for (const std::string& bad : std::vector<std::string>{
           "{\"version\":1,\"bot_game_starts\":[1,2", "", "[]", "{\"version\":2}",
           "{\"version\":1,\"bot_game_starts\":[\"yesterday\"]}",
           "{\"version\":1,\"bot_game_starts\":[-5]}", "{\"version\":1,\"bot_game_starts\":7}",
           std::string("\0\xff\xfe", 3)}) {
    {
      std::lock_guard lock(mutex_);
      log_.clear();
    }
    fs::remove(dir_ / "state.json.corrupt");
    write(bad);
    StateFile file(dir_);
    EXPECT_EQ(file.load(), PersistentState{}) << bad;
    EXPECT_NE(log().find("is unusable"), std::string::npos) << bad;
    EXPECT_TRUE(fs::exists(file.path().string() + ".corrupt")) << bad;
    // The next save works and the state after it is the saved one.
    ASSERT_TRUE(file.save(PersistentState{{9}, {}}));
    EXPECT_EQ(file.load(), (PersistentState{{9}, {}}));
  }
}

TEST_F(StateFileTest, ADirectoryInPlaceOfTheFileIsAWarningNotACrash) {
  fs::create_directories(dir_ / "state.json");
  StateFile file(dir_);
  EXPECT_EQ(file.load(), PersistentState{});
  EXPECT_NE(log().find("[warning]"), std::string::npos) << log();
}

TEST_F(StateFileTest, AnUnwritableDirectoryFailsTheSaveWithAWarning) {
  if (::geteuid() == 0) {
    // root writes anywhere; a file standing where the directory should be fails for everyone.
    fs::create_directories(dir_);
    std::ofstream(dir_ / "blocker") << "x";
    EXPECT_FALSE(StateFile(dir_ / "blocker").save(PersistentState{{1}, {}}));
  } else {
    fs::create_directories(dir_);
    fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_FALSE(StateFile(dir_).save(PersistentState{{1}, {}}));
    fs::permissions(dir_, fs::perms::owner_all);
  }
  EXPECT_NE(log().find("[warning]"), std::string::npos) << log();
}

TEST(StateText, RendersAVersionedObjectAndParsesItBack) {
  const PersistentState state{{10, 20}, {}};
  const std::string text = render_state(state);
  EXPECT_NE(text.find("\"version\": 1"), std::string::npos) << text;
  std::string error;
  EXPECT_EQ(parse_state(text, error), state) << error;
  EXPECT_EQ(parse_state(R"({"version":1})", error), PersistentState{}) << error;
  EXPECT_FALSE(parse_state("nonsense", error).has_value());
  EXPECT_FALSE(error.empty());
}

TEST(StateText, KeepsMatchmakingDeclinesAndReadsFilesWithoutThem) {
  const PersistentState state{{10}, {SeekDecline{"slowbot", "timeControl", 1700000000}}};
  std::string error;
  EXPECT_EQ(parse_state(render_state(state), error), state) << error;
  // A file from before matchmaking: no declines.
  EXPECT_EQ(parse_state(R"({"version":1,"bot_game_starts":[5]})", error),
            (PersistentState{{5}, {}}))
      << error;
  EXPECT_FALSE(parse_state(R"({"version":1,"seek_declines":[{"user":"x"}]})", error));
  EXPECT_NE(error.find("seek_declines"), std::string::npos) << error;
  EXPECT_FALSE(parse_state(R"({"version":1,"seek_declines":{}})", error));
}

TEST(StateDir, ConfiguredThenSystemdThenTheWorkingDirectory) {
  EXPECT_EQ(resolve_state_dir("/srv/zh", "/var/lib/zhbot"), fs::path("/srv/zh"));
  EXPECT_EQ(resolve_state_dir("", "/var/lib/zhbot:/var/lib/other"), fs::path("/var/lib/zhbot"));
  EXPECT_EQ(resolve_state_dir("", nullptr), fs::path("state"));
  EXPECT_EQ(resolve_state_dir("", ""), fs::path("state"));
}

}  // namespace
}  // namespace zh::bot
