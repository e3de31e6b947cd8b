#include "bot/logging/log_setup.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bot/lichess/redact.h"

namespace zh::bot {
namespace {

constexpr const char* kToken = "lip_LogTestSecret0123456789";

class LogSetupTest : public ::testing::Test {
 protected:
  void SetUp() override { register_secret(kToken); }
  void TearDown() override { spdlog::set_default_logger(previous_); }
  void install(LogFormat format) {
    setup_logging(format, "debug", [this](std::string_view line) { lines_.emplace_back(line); });
  }
  std::shared_ptr<spdlog::logger> previous_ = spdlog::default_logger();
  std::vector<std::string> lines_;
};

TEST_F(LogSetupTest, TextLinesNameTheGameAndHideTheToken) {
  install(LogFormat::kText);
  spdlog::info("header Authorization: Bearer {}", kToken);
  game_logger("abcdefgh")->warn("move e2e4 rejected");
  ASSERT_EQ(lines_.size(), 2u);
  EXPECT_EQ(lines_[0].find(kToken), std::string::npos) << lines_[0];
  EXPECT_NE(lines_[0].find("Bearer <redacted>"), std::string::npos) << lines_[0];
  EXPECT_NE(lines_[1].find("[game:abcdefgh]"), std::string::npos) << lines_[1];
  EXPECT_NE(lines_[1].find("[warning]"), std::string::npos) << lines_[1];
}

TEST_F(LogSetupTest, ALogFileHoldsTheSameRedactedLinesAndRotatesBySize) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / ("zhbot-logfile-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  LogFile file;
  file.path = (dir / "zhbot.log").string();
  file.max_bytes = 2048;
  file.files = 2;
  setup_logging(
      LogFormat::kText, "debug", [this](std::string_view line) { lines_.emplace_back(line); },
      file);
  for (int i = 0; i < 100; ++i) spdlog::info("line {} with token {}", i, kToken);
  EXPECT_EQ(lines_.size(), 100u) << "standard error still gets every line";
  const auto read = [&](const char* name) {
    std::ifstream in(dir / name);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string current = read("zhbot.log"), newest = read("zhbot.1.log");
  EXPECT_NE(current.find("line 99 with token <redacted>"), std::string::npos) << current;
  EXPECT_NE(read("zhbot.2.log").find("with token <redacted>"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "zhbot.3.log")) << "more files kept than asked";
  for (const char* name : {"zhbot.log", "zhbot.1.log", "zhbot.2.log"}) {
    EXPECT_LE(std::filesystem::file_size(dir / name), 2048u) << name;
    EXPECT_EQ(read(name).find(kToken), std::string::npos) << name;
  }
  // The text format, as on standard error: the file's lines are the same lines.
  EXPECT_NE(current.find(lines_.back()), std::string::npos);
  spdlog::set_default_logger(previous_);
  std::filesystem::remove_all(dir);
}

TEST_F(LogSetupTest, ALogFileThatCannotBeOpenedIsNamed) {
  // Its "directory" is a plain file: no sink can create or open it.
  const std::filesystem::path blocker = std::filesystem::path(::testing::TempDir()) /
                                        ("zhbot-not-a-dir-" + std::to_string(::getpid()));
  std::ofstream(blocker) << "a file\n";
  LogFile file;
  file.path = (blocker / "zhbot.log").string();
  try {
    setup_logging(LogFormat::kText, "info", {}, file);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(file.path), std::string::npos) << e.what();
  }
  std::filesystem::remove(blocker);
}

TEST_F(LogSetupTest, JsonLinesAreObjectsWithAGameField) {
  install(LogFormat::kJson);
  game_logger("abcdefgh")->info("token {} and \"quotes\"", kToken);
  spdlog::debug("plain");
  ASSERT_EQ(lines_.size(), 2u);
  const auto j = nlohmann::json::parse(lines_[0]);
  EXPECT_EQ(j["game"], "abcdefgh");
  EXPECT_EQ(j["level"], "info");
  EXPECT_EQ(j["msg"], "token <redacted> and \"quotes\"");
  EXPECT_TRUE(j.contains("ts"));
  const auto k = nlohmann::json::parse(lines_[1]);
  EXPECT_FALSE(k.contains("game"));
  EXPECT_EQ(lines_[0].find(kToken), std::string::npos);
}

TEST_F(LogSetupTest, InvalidUtf8DoesNotThrow) {
  install(LogFormat::kJson);
  spdlog::info("chat from network: {}", std::string("\xff\xfe bad", 6));
  ASSERT_EQ(lines_.size(), 1u);
  EXPECT_NO_THROW(nlohmann::json::parse(lines_[0]));
}

TEST(LogFormat, Parse) {
  EXPECT_EQ(parse_log_format("json"), LogFormat::kJson);
  EXPECT_EQ(parse_log_format("text"), LogFormat::kText);
  EXPECT_THROW(parse_log_format("xml"), std::invalid_argument);
}

}  // namespace
}  // namespace zh::bot
