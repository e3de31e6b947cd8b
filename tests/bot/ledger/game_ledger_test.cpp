#include "bot/ledger/game_ledger.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "tests/support/fake_clock.h"

namespace zh::bot {
namespace {

namespace fs = std::filesystem;

class GameLedgerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("zhbot-ledger-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  zh::test::FakeClock clock_;
};

TEST_F(GameLedgerTest, CountsBotGamesOfTheLastDayAcrossARestart) {
  {
    GameLedger ledger{StateFile(dir_), clock_};
    ledger.restore();
    ledger.record_bot_game();
    clock_.advance(std::chrono::hours(1));
    ledger.record_bot_game();
    EXPECT_EQ(ledger.bot_games_last_24h(), 2);
    clock_.advance(std::chrono::hours(23) + std::chrono::minutes(1));
    EXPECT_EQ(ledger.bot_games_last_24h(), 1);  // the first is a day old
  }
  GameLedger again{StateFile(dir_), clock_};
  again.restore();
  // The file keeps wall-clock times (the clock's wall_now, which the fake clock moves too), so
  // the restart sees the first game a day old and the second 23 h old: one counts, as before.
  EXPECT_EQ(again.bot_games_last_24h(), 1);
  clock_.advance(std::chrono::hours(1));
  EXPECT_EQ(again.bot_games_last_24h(), 0);
}

TEST_F(GameLedgerTest, RemembersDeclinesAcrossARestartUntilTheyExpire) {
  {
    GameLedger ledger{StateFile(dir_), clock_};
    ledger.restore();
    ledger.remember_decline("slowbot", "timeControl", std::chrono::hours(24));
    ledger.remember_decline("gone", "later", std::chrono::seconds(-1));  // already over
    EXPECT_EQ(ledger.declined("slowbot"), "timeControl");
    EXPECT_FALSE(ledger.declined("gone"));
  }
  GameLedger again{StateFile(dir_), clock_};
  again.restore();
  EXPECT_EQ(again.declined("slowbot"), "timeControl");
  EXPECT_FALSE(again.declined("gone"));
  EXPECT_FALSE(again.declined("stranger"));
  // A day later (by the clock, not the machine's calendar) the decline is over.
  clock_.advance(std::chrono::hours(24));
  EXPECT_FALSE(again.declined("slowbot"));
}

TEST_F(GameLedgerTest, DeclinersListedForeverAreReadFromTheFileAsItIsNow) {
  GameLedger ledger{StateFile(dir_), clock_};
  ledger.restore();
  EXPECT_FALSE(ledger.declined("grumpy"));
  ASSERT_TRUE(ledger.remember_forever("Grumpy", "noBot"));
  ASSERT_TRUE(ledger.remember_forever("sulky", "generic"));
  EXPECT_EQ(ledger.declined("grumpy"), "listed in decliners.txt");
  // A restart keeps them; the file is the operator's to read and edit.
  GameLedger again{StateFile(dir_), clock_};
  again.restore();
  EXPECT_EQ(again.decliners().ids(), (std::set<std::string>{"grumpy", "sulky"}));
  std::ifstream in(dir_ / "decliners.txt");
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(text.find("grumpy  # declined (noBot) on "), std::string::npos) << text;
  // Deleting a line gives that bot another chance, at once; deleting the file clears the list.
  std::ofstream(dir_ / "decliners.txt") << "# edited by hand\n\nsulky  # keep\n";
  EXPECT_FALSE(again.declined("grumpy"));
  EXPECT_TRUE(again.declined("sulky"));
  fs::remove(dir_ / "decliners.txt");
  EXPECT_FALSE(again.declined("sulky"));
}

}  // namespace
}  // namespace zh::bot
