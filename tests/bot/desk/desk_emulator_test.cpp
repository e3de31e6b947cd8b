// Matchmaking against the lichess emulator (run in this process, on loopback) with a clock the
// test moves: the general 429 backoff (60 s, doubling up to 10 minutes, no real minute spent)
// and lichess's HTTP 400 answer to our challenge (refused: left alone a day; the other bot at
// its own daily limit: as long as lichess says). Declines are kept in wall-clock time (they
// outlive a restart), so their length is read from the state file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <thread>

#include "bot/desk/challenge_desk.h"
#include "bot/lichess/http_client.h"
#include "tests/emulator/server.h"
#include "tests/emulator/world.h"
#include "tests/support/fake_clock.h"

namespace zh::bot {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
namespace fs = std::filesystem;

class DeskAgainstEmulator : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("zhbot-desk-emu-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    world_ = std::make_unique<emulator::World>(emulator::WorldOptions{});
    server_ = std::make_unique<emulator::EmulatorServer>(*world_);
    const int port = server_->bind(0);
    serving_ = std::thread([this] { server_->run(signalled_); });
    HttpSettings settings;
    settings.base_url = "http://127.0.0.1:" + std::to_string(port);
    settings.token = emulator::WorldOptions{}.tokens.front();
    http_ = std::make_unique<HttpClient>(settings);
    client_ = std::make_unique<LichessClient>(
        *http_, clock_, [] { return 0.5; }, cancel_);
    config_ = BotConfig::defaults();
    config_.matchmaking.enabled = true;
    config_.matchmaking.idle_s = 10;
    config_.matchmaking.interval_s = 5;
  }
  void TearDown() override {
    desk_.reset();
    // Our keep-alive connection would hold one of the server's workers until it times out.
    client_.reset();
    http_.reset();
    server_->request_shutdown();
    serving_.join();
    server_.reset();
    world_->shutdown();
    world_.reset();
    fs::remove_all(dir_);
  }

  ChallengeDesk& make_desk() {
    ledger_ = std::make_unique<GameLedger>(StateFile(dir_), clock_);
    ChallengeDesk::Deps deps;
    deps.client = client_.get();
    deps.clock = &clock_;
    deps.metrics = &metrics_;
    deps.sessions = &sessions_;
    deps.ledger = ledger_.get();
    deps.random = [] { return 0.0; };
    desk_ = std::make_unique<ChallengeDesk>(config_, std::move(deps));
    desk_->set_account(Account{"zhbot", "zhbot", "BOT", 1500});
    return *desk_;
  }

  // The count of one matchmaking step on /metrics (0 when absent).
  int step(const std::string& name) const {
    const std::string text = metrics_.render();
    const std::string key = "zhbot_matchmaking_total{step=\"" + name + "\"} ";
    const auto at = text.find(key);
    return at == std::string::npos ? 0 : std::stoi(text.substr(at + key.size()));
  }
  // Waits (real time) until the desk's worker has recorded `n` of `name`.
  bool wait_step(const std::string& name, int n) const {
    for (int i = 0; i < 1000; ++i) {
      if (step(name) >= n) return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }

  // How long from now (wall-clock seconds, as the state file keeps it) `user` is left alone.
  std::int64_t remembered_for_s(const std::string& user) const {
    for (const auto& d : StateFile(dir_).load().seek_declines)
      if (d.user_id == user) return d.until - unix_seconds(clock_.wall_now());
    return -1;
  }

  fs::path dir_;
  std::unique_ptr<emulator::World> world_;
  std::unique_ptr<emulator::EmulatorServer> server_;
  std::atomic<bool> signalled_{false};
  std::thread serving_;
  zh::test::FakeClock clock_;
  CancelToken cancel_;
  std::unique_ptr<HttpClient> http_;
  std::unique_ptr<LichessClient> client_;
  BotConfig config_;
  Metrics metrics_;
  SessionTable sessions_;
  std::unique_ptr<GameLedger> ledger_;
  std::unique_ptr<ChallengeDesk> desk_;
};

TEST_F(DeskAgainstEmulator, AGeneral429PausesSeeking60sDoublingUpTo10Minutes) {
  world_->admin_add_user({{"name", "Peer"}, {"title", "BOT"}, {"rating", 1500}});
  // lichess's HTML "too many requests" page, no rate-limit key: the general backoff.
  world_->faults().add(emulator::fault_rule_from_json(
      {{"target", "challenge_create"}, {"status", 429}, {"ratelimit_body", false}, {"count", 0}}));
  ChallengeDesk& desk = make_desk();
  clock_.advance(10s);
  desk.tick();
  ASSERT_TRUE(wait_step("rate_limited", 1));
  int attempts = 1;
  for (const auto pause : {60s, 120s, 240s, 480s, 600s, 600s}) {
    clock_.advance(pause - 1s);
    desk.tick();
    EXPECT_EQ(step("sought"), attempts) << "sought again within the " << pause.count() << " s";
    clock_.advance(1s);
    desk.tick();
    ++attempts;
    EXPECT_EQ(step("sought"), attempts) << "not sought after the " << pause.count() << " s";
    ASSERT_TRUE(wait_step("rate_limited", attempts));
  }
  EXPECT_EQ(step("challenged"), 0);
}

TEST_F(DeskAgainstEmulator, ABotRefusedByLichessIsLeftAloneForADay) {
  world_->admin_add_user({{"name", "Shy"},
                          {"title", "BOT"},
                          {"rating", 1500},
                          {"refuses", "Shy does not accept challenges."}});
  ChallengeDesk& desk = make_desk();
  clock_.advance(10s);
  desk.tick();
  ASSERT_TRUE(wait_step("failed", 1));
  EXPECT_EQ(ledger_->declined("shy"), "refused");
  EXPECT_NEAR(double(remembered_for_s("shy")), 24 * 3600.0, 60.0);
  clock_.advance(60s);
  desk.tick();
  ASSERT_TRUE(wait_step("no_candidate", 1)) << "asked a bot lichess refused";
  EXPECT_EQ(step("rate_limited"), 0) << "a refusal is not a rate limit of ours";
}

TEST_F(DeskAgainstEmulator, ABotAtItsOwnDailyLimitIsLeftAloneAsLongAsLichessSays) {
  world_->admin_add_user({{"name", "Busy"},
                          {"title", "BOT"},
                          {"rating", 1500},
                          {"refuses", "Busy cannot play more bot games today."},
                          {"refuses_seconds", 7200}});
  ChallengeDesk& desk = make_desk();
  clock_.advance(10s);
  desk.tick();
  ASSERT_TRUE(wait_step("failed", 1));
  EXPECT_EQ(ledger_->declined("busy"), "refused");
  EXPECT_NEAR(double(remembered_for_s("busy")), 7200.0, 60.0);
  clock_.advance(60s);
  desk.tick();
  ASSERT_TRUE(wait_step("no_candidate", 1)) << "asked it again within lichess's 2 h";
  EXPECT_EQ(step("rate_limited"), 0);
}

}  // namespace
}  // namespace zh::bot
