#include "bot/logging/log_setup.h"

#include <gtest/gtest.h>

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
