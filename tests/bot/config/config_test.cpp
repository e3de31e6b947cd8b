#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bot/config/bot_config.h"
#include "bot/config/config_file.h"
#include "bot/config/load_config.h"
#include "bot/config/token.h"
#include "bot/lichess/redact.h"
#include "engine/evaluator_loader.h"
#include "engine/nn/registry.h"
#include "tests/support/test_paths.h"

namespace zh::bot {
namespace {

Options declared() {
  Options o;
  declare_all_options(o);
  return o;
}

std::string error_of(const std::string& yaml) {
  Options o = declared();
  try {
    apply_config_text(yaml, "test.yaml", o);
    BotConfig::from(o);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(Config, DefaultsMatchTheIssue) {
  const BotConfig c = BotConfig::from(declared());
  EXPECT_EQ(c.base_url, "https://lichess.org");
  EXPECT_EQ(c.challenge.variants, std::vector<std::string>{"crazyhouse"});
  EXPECT_EQ(c.challenge.max_concurrent_games, 2);
  EXPECT_EQ(c.abort_time_s, 20);
  EXPECT_EQ(c.human_min_think_ms, 1000);
  EXPECT_EQ(c.ponder, PonderMode::kOn);
  EXPECT_FALSE(c.accept_draws);
  EXPECT_FALSE(c.resign);
  EXPECT_EQ(c.takebacks_accepted, 0);
  EXPECT_EQ(c.metrics_port, 0);  // off by default
  EXPECT_EQ(c.stream_idle_timeout_s, 20);
}

TEST(Config, AppliesSectionsAndLists) {
  Options o = declared();
  apply_config_text(R"(
lichess:
  base_url: http://127.0.0.1:8080
challenge:
  variants: [crazyhouse]
  speeds: "blitz, rapid"
  max_concurrent_games: 4
  block_list:
game:
  ponder: humans
)",
                    "test.yaml", o);
  const BotConfig c = BotConfig::from(o);
  EXPECT_EQ(c.base_url, "http://127.0.0.1:8080");
  EXPECT_EQ(c.challenge.variants, (std::vector<std::string>{"crazyhouse"}));
  EXPECT_EQ(c.challenge.speeds, (std::vector<std::string>{"blitz", "rapid"}));
  EXPECT_EQ(c.challenge.max_concurrent_games, 4);
  EXPECT_TRUE(c.challenge.block_list.empty());
  EXPECT_EQ(c.ponder, PonderMode::kHumans);
}

TEST(Config, ErrorsNameTheKeyTheValueAndWhatIsAllowed) {
  std::string e = error_of("challenge:\n  max_concurrent_games: lots\n");
  EXPECT_NE(e.find("test.yaml:2"), std::string::npos) << e;
  EXPECT_NE(e.find("challenge.max_concurrent_games"), std::string::npos) << e;
  EXPECT_NE(e.find("'lots'"), std::string::npos) << e;
  EXPECT_NE(e.find("an integer in [1, 64]"), std::string::npos) << e;

  e = error_of("game:\n  ponder: sometimes\n");
  EXPECT_NE(e.find("one of off, on, humans, bots"), std::string::npos) << e;

  e = error_of("challenge:\n  speeds: blitz,hyperbullet\n");
  EXPECT_NE(e.find("'hyperbullet'"), std::string::npos) << e;
  EXPECT_NE(e.find("ultraBullet"), std::string::npos) << e;

  e = error_of("challenge:\n  min_base_s: 600\n  max_base_s: 60\n");
  EXPECT_NE(e.find("min_base_s"), std::string::npos) << e;

  e = error_of("lichess:\n  base_url: lichess.org\n");
  EXPECT_NE(e.find("https://"), std::string::npos) << e;

  // Plain http would send the token in clear text: only loopback test servers may use it.
  for (const char* url :
       {"http://lichess.org", "http://127.0.0.1.example.com", "http://localhost.evil.net:80"}) {
    e = error_of(std::string("lichess:\n  base_url: ") + url + "\n");
    EXPECT_NE(e.find("plain http://"), std::string::npos) << url << ": " << e;
  }
  for (const char* url : {"http://localhost:9000", "http://[::1]:8080/", "http://127.0.0.1"})
    EXPECT_EQ(error_of(std::string("lichess:\n  base_url: ") + url + "\n"), "") << url;
}

TEST(Config, EveryVariantButCrazyhouseIsRefusedNamingTheKey) {
  // Such a variant was accepted and its game never played: refused before the bot starts.
  for (const char* yaml :
       {"challenge:\n  variants: [crazyhouse, atomic]\n", "challenge:\n  variants: standard\n",
        "challenge:\n  variants: \"chess960, crazyhouse\"\n"}) {
    const std::string e = error_of(yaml);
    EXPECT_NE(e.find("option 'variants'"), std::string::npos) << yaml << e;
    EXPECT_NE(e.find("crazyhouse only"), std::string::npos) << yaml << e;
  }
  EXPECT_NE(error_of("challenge:\n  variants: [crazyhouse, atomic]\n").find("'atomic'"),
            std::string::npos);
  EXPECT_NE(error_of("challenge:\n  variants: horde\n").find("'horde'"), std::string::npos);
  EXPECT_EQ(error_of("challenge:\n  variants: crazyhouse\n"), "");
}

TEST(Config, DeskOptionsAreCheckedByKey) {
  // Correspondence is refused, with the reason, rather than accepted and played badly.
  std::string e = error_of("challenge:\n  speeds: blitz,correspondence\n");
  EXPECT_NE(e.find("speeds"), std::string::npos) << e;
  EXPECT_NE(e.find("tooSlow"), std::string::npos) << e;

  e = error_of("challenge:\n  max_concurrent_games: 2\n  games_reserved_for_humans: 2\n");
  EXPECT_NE(e.find("games_reserved_for_humans"), std::string::npos) << e;
  EXPECT_EQ(error_of("challenge:\n  max_concurrent_games: 3\n  games_reserved_for_humans: 2\n"),
            "");

  e = error_of("challenge:\n  queue_order: loudest\n");
  EXPECT_NE(e.find("queue_order"), std::string::npos) << e;
  EXPECT_NE(e.find("humans_first"), std::string::npos) << e;

  e = error_of("matchmaking:\n  seek_time_controls: \"180+2, 7+0\"\n");
  EXPECT_NE(e.find("seek_time_controls"), std::string::npos) << e;
  EXPECT_NE(e.find("'7+0'"), std::string::npos) << e;
  e = error_of("matchmaking:\n  seek_games: true\n  seek_time_controls: \"\"\n");
  EXPECT_NE(e.find("seek_time_controls"), std::string::npos) << e;
  e = error_of("matchmaking:\n  seek_games: true\nchallenge:\n  accept_bots: false\n");
  EXPECT_NE(e.find("seek_games"), std::string::npos) << e;
  e = error_of("matchmaking:\n  seek_min_rating: 2000\n  seek_max_rating: 1800\n");
  EXPECT_NE(e.find("seek_min_rating"), std::string::npos) << e;
  e = error_of("matchmaking:\n  seek_rating_preference: stronger\n");
  EXPECT_NE(e.find("seek_rating_preference"), std::string::npos) << e;
  EXPECT_NE(e.find("higher"), std::string::npos) << e;
  e = error_of("matchmaking:\n  seek_timeout_s: 0\n");
  EXPECT_NE(e.find("matchmaking.seek_timeout_s"), std::string::npos) << e;

  Options o = declared();
  apply_config_text("matchmaking:\n  seek_games: true\n  seek_time_controls: 60+1, 300+0\n",
                    "test.yaml", o);
  const BotConfig c = BotConfig::from(o);
  EXPECT_TRUE(c.matchmaking.enabled);
  EXPECT_EQ(c.matchmaking.clocks, (std::vector<SeekClock>{{60, 1}, {300, 0}}));
  EXPECT_FALSE(BotConfig::defaults().matchmaking.enabled);  // off unless asked for
}

TEST(Config, UnknownKeysAndSectionsAreRejectedWithTheAllowedOnes) {
  std::string e = error_of("challenge:\n  max_games: 3\n");
  EXPECT_NE(e.find("unknown key 'challenge.max_games'"), std::string::npos) << e;
  EXPECT_NE(e.find("max_concurrent_games"), std::string::npos) << e;
  e = error_of("chalenge:\n  variants: crazyhouse\n");
  EXPECT_NE(e.find("unknown section 'chalenge'"), std::string::npos) << e;
  // A key of another section is not accepted in the wrong place.
  e = error_of("game:\n  base_url: http://x\n");
  EXPECT_NE(e.find("unknown key 'game.base_url'"), std::string::npos) << e;
  // A key an earlier version read names what replaced it.
  e = error_of("search:\n  mate_in_one: true\n");
  EXPECT_NE(e.find("unknown key 'search.mate_in_one'"), std::string::npos) << e;
  EXPECT_NE(e.find("search.leaf_mate_plies"), std::string::npos) << e;
  e = error_of("matchmaking:\n  seek_rated: true\n");
  EXPECT_NE(e.find("matchmaking.seek_mode"), std::string::npos) << e;
  e = error_of("- just\n- a list\n");
  EXPECT_NE(e.find("top level"), std::string::npos) << e;
  e = error_of("challenge: [\n");
  EXPECT_NE(e.find("not valid YAML"), std::string::npos) << e;
}

// Found by fuzz_config: a list or map used as a key ("? [a]") threw yaml-cpp's own exception,
// which the daemon reported without the file and exited with 1 instead of the config code.
TEST(Config, KeysThatAreListsSectionsOrNullAreAConfigErrorWithTheLine) {
  for (const char* yaml : {"? [lichess, game]\n: 1\n", "search:\n  ? {q_factor: 1}\n  : 2\n",
                           "search:\n  ~: 3\n", "search:\n  ? [q_factor]\n  : 0.5\n"}) {
    Options o = declared();
    EXPECT_THROW(apply_config_text(yaml, "test.yaml", o), ConfigError) << yaml;
  }
  const std::string e = error_of("search:\n  ? [q_factor]\n  : 0.5\n");
  EXPECT_NE(e.find("test.yaml:2: expected a plain name as key, found a list"), std::string::npos)
      << e;
}

TEST(Config, TheTokenIsNeverReadFromTheFileNorEchoed) {
  for (const char* yaml :
       {"token: lip_FileSecret123\n", "lichess:\n  token: lip_FileSecret123\n"}) {
    const std::string e = error_of(yaml);
    EXPECT_NE(e.find("LICHESS_BOT_TOKEN"), std::string::npos) << e;
    EXPECT_EQ(e.find("lip_FileSecret123"), std::string::npos) << e;
  }
}

TEST(Config, RenderedConfigLoadsBackToTheSameValues) {
  Options o = declared();
  apply_config_text(
      "challenge:\n  variants: crazyhouse,atomic\n  only_bots: true\n"
      "chat:\n  greeting: \"Hi \\\"{opponent}\\\": on\"\n",
      "a.yaml", o);
  Options back = declared();
  apply_config_text(render_config(o, true), "rendered.yaml", back);
  for (const auto& opt : o.all())
    EXPECT_EQ(opt.format(opt.value), opt.format(back.at(opt.name).value)) << opt.name;
}

TEST(Config, TheShippedConfigFileHoldsEveryOptionAtItsDefault) {
  if (!has_evaluator_backend("torch"))
    GTEST_SKIP() << "built without LibTorch: the shipped file's default backend is torch";
  const std::filesystem::path file =
      std::filesystem::path(zh::test::data_dir()) / ".." / ".." / "config" / "zhbot.yaml";
  std::ifstream in(file);
  ASSERT_TRUE(in.good()) << file;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Options o = declared();
  apply_config_text(text, "config/zhbot.yaml", o);
  for (const auto& opt : o.all()) {
    // A device-dependent option is shown commented out, so each device keeps its own default.
    const std::string line =
        DeviceProfile::gpu().default_of(opt.name) ? "  # " + opt.name + ":" : "  " + opt.name + ":";
    EXPECT_NE(text.find(line), std::string::npos)
        << opt.name << " is missing from config/zhbot.yaml (regenerate: zhbot check-config "
        << "--defaults > config/zhbot.yaml)";
    EXPECT_EQ(opt.format(opt.value), opt.format(opt.default_value)) << opt.name;
  }
}

TEST(Config, MissingFileIsAClearError) {
  try {
    load_config(std::string("/nonexistent/zhbot.yaml"));
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("--config"), std::string::npos);
  }
}

class TokenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ =
        std::filesystem::temp_directory_path() / ("zhbot_token_test_" + std::to_string(::getpid()));
  }
  void TearDown() override { std::filesystem::remove(path_); }
  void write(const std::string& text, mode_t mode) {
    std::ofstream(path_) << text;
    ::chmod(path_.c_str(), mode);
  }
  std::filesystem::path path_;
};

TEST_F(TokenTest, EnvironmentWinsAndIsTrimmed) {
  write("lip_FromFile123\n", 0600);
  const LoadedToken t = load_token("  lip_FromEnv456\n", path_.string());
  EXPECT_EQ(t.token, "lip_FromEnv456");
  EXPECT_EQ(t.origin, "LICHESS_BOT_TOKEN");
  EXPECT_EQ(redact("x lip_FromEnv456 y"), "x <redacted> y");
}

TEST_F(TokenTest, FileIsUsedAndAWorldReadableFileIsWarnedAbout) {
  write("lip_FromFile789\n", 0600);
  LoadedToken t = load_token(nullptr, path_.string());
  EXPECT_EQ(t.token, "lip_FromFile789");
  EXPECT_TRUE(t.warnings.empty());
  write("lip_FromFile789\n", 0644);
  t = load_token("", path_.string());
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_NE(t.warnings[0].find("chmod 600"), std::string::npos);
}

TEST_F(TokenTest, NoTokenExplainsHowToSetOne) {
  std::string problem;
  const LoadedToken t = try_load_token(nullptr, "", problem);
  EXPECT_TRUE(t.token.empty());
  EXPECT_NE(problem.find("LICHESS_BOT_TOKEN"), std::string::npos);
  EXPECT_NE(problem.find("bot:play"), std::string::npos);
  EXPECT_THROW(load_token(nullptr, (path_ / "missing").string()), ConfigError);
}

TEST_F(TokenTest, MalformedTokenIsRejectedWithoutShowingIt) {
  try {
    load_token("Bearer lip_Secret999", "");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).find("lip_Secret999"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("Bearer"), std::string::npos);
  }
}

}  // namespace
}  // namespace zh::bot
