// The challenge desk on the wire (issue 32): matchmaking finds a game when the bot is idle,
// leaves alone a bot that declined or never answered, stops at the daily bot-game limit (its
// own count and lichess's 429) and plays what it found; waiting challenges are all played as
// slots free; correspondence is declined with `tooSlow`.
#include <signal.h>

#include <fstream>

#include "tests/e2e/e2e_fixture.h"

namespace zh::e2e {
namespace {

using E2eDesk = E2eTest;

// Our challenges to `user` that lichess took (HTTP 200), from the emulator's request log.
int challenges_to(Emulator& emu, const std::string& user) {
  int n = 0;
  for (const auto& r : emu.get("/admin/log"))
    n += r.value("endpoint", "") == "challenge_create" && r.value("status", 0) == 200 &&
         r.value("path", "") == "/api/challenge/" + user;
  return n;
}

int status_count(Emulator& emu, const std::string& endpoint, int status) {
  int n = 0;
  for (const auto& r : emu.get("/admin/log"))
    n += r.value("endpoint", "") == endpoint && r.value("status", 0) == status;
  return n;
}

// The first game the emulator knows of ("" when none within `timeout`).
std::string first_game(Emulator& emu, std::chrono::milliseconds timeout) {
  std::string id;
  eventually(
      [&] {
        const Json games = emu.get("/admin/games");
        if (!games.empty()) id = games[0].value("id", "");
        return !id.empty();
      },
      timeout);
  return id;
}

Json quick_bot(const std::string& name, int rating) {
  return {{"name", name},
          {"title", "BOT"},
          {"rating", rating},
          {"opponent", {{"type", "random"}, {"resign_at_ply", 10}, {"delay_ms", 20}}}};
}

Json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return Json::parse(in, nullptr, false);
}

BotSettings seeking(BotSettings s, const std::filesystem::path& state_dir) {
  s.set("matchmaking", "seek_games", "true")
      .set("matchmaking", "seek_after_idle_s", "1")
      .set("matchmaking", "seek_interval_s", "5")
      .set("matchmaking", "seek_timeout_s", "5")
      .set("matchmaking", "seek_rating_difference", "300")
      .set("matchmaking", "seek_time_controls", "\"60+1\"")
      .set_quoted("operations", "state_dir", state_dir.string());
  return s;
}

TEST_F(E2eDesk, AnIdleBotFindsAGameAfterADeclineAndAnUnansweredChallenge) {
  // Challenges live long enough that only the bot's own timeout cancels the unanswered one.
  start_emulator({"--challenge-ttl-ms", "120000"});
  emu_->post(
      "/admin/users",
      {{"name", "Picky"}, {"title", "BOT"}, {"rating", 1500}, {"decline_reason", "timeControl"}});
  emu_->post("/admin/users",
             {{"name", "Sleepy"}, {"title", "BOT"}, {"rating", 1520}, {"ignores", true}});
  emu_->post("/admin/users",
             {{"name", "Master"}, {"title", "BOT"}, {"rating", 2400}});  // too strong
  // One failed listing on the way: the bot lists again (and, failing that, tries next time).
  emu_->add_faults(Json{{"target", "bot_online"}, {"status", 503}, {"count", 1}});
  const auto state_dir = dir_ / "state";
  BotProcess& bot = start_bot(seeking(settings(), state_dir));

  ASSERT_TRUE(bot.wait_log("declined our challenge", 60s)) << bot.log();
  ASSERT_TRUE(bot.wait_log("did not answer our challenge", 60s)) << bot.log();
  ASSERT_TRUE(bot.wait_log("none of", 60s)) << "no seek found nobody left to ask: " << bot.log();
  EXPECT_EQ(status_count(*emu_, "challenge_cancel", 200), 1);

  // A bot that plays comes online: the next seek finds it, and the game is played.
  emu_->post("/admin/users", quick_bot("Player", 1480));
  const std::string id = first_game(*emu_, 60s);
  ASSERT_FALSE(id.empty()) << bot.log();
  expect_clean_finish(id, 90s);
  EXPECT_EQ(challenges_to(*emu_, "Picky"), 1) << "asked a bot that declined";
  EXPECT_EQ(challenges_to(*emu_, "Sleepy"), 1) << "asked a bot that never answered";
  EXPECT_EQ(challenges_to(*emu_, "Master"), 0) << "challenged outside the rating window";

  // The declines and the bot game are in the state file for the next start.
  const Json state = read_json(state_dir / "state.json");
  ASSERT_TRUE(state.is_object()) << "no readable state file";
  std::map<std::string, std::string> declines;
  for (const auto& d : state["seek_declines"]) declines[d["user"]] = d["reason"];
  EXPECT_EQ(declines["picky"], "timecontrol") << state.dump();
  EXPECT_EQ(declines["sleepy"], "unanswered") << state.dump();
  EXPECT_GE(state["bot_game_starts"].size(), 1u) << state.dump();
  EXPECT_NE(bot.log().find("idle for"), std::string::npos);
}

TEST_F(E2eDesk, TheDailyBotGameLimitIsRespectedFromLichessAndFromTheLedger) {
  // Lichess lets this bot start one bot game today.
  start_emulator({"--bot-games-per-day", "1"});
  emu_->post("/admin/users", quick_bot("Player", 1500));
  const auto state_dir = dir_ / "state";
  BotProcess& bot = start_bot(seeking(settings(), state_dir));
  const std::string id = first_game(*emu_, 60s);
  ASSERT_FALSE(id.empty()) << bot.log();
  expect_clean_finish(id, 90s);
  // The next seek meets lichess's 429 and pauses for as long as it says.
  ASSERT_TRUE(bot.wait_log("bot.vsBot.day", 60s)) << bot.log();
  EXPECT_NE(bot.log().find("no bot games for 3600 s"), std::string::npos) << bot.log();
  EXPECT_EQ(status_count(*emu_, "challenge_create", 429), 1);
  EXPECT_EQ(emu_->get("/admin/games").size(), 1u);
  // A drain with no game left ends with 0; waited for, not forced (a sanitizer build's exit,
  // its leak scan included, can take seconds).
  bot.process().signal(SIGTERM);
  const auto drained = bot.process().wait_exit(60s);
  ASSERT_TRUE(drained.has_value()) << bot.log();
  EXPECT_TRUE(drained->exited && drained->code == 0) << drained->describe();

  // Restarted with its own cap at one game a day: the ledger remembers the game and the bot
  // does not even ask.
  const int creates_before =
      status_count(*emu_, "challenge_create", 429) + status_count(*emu_, "challenge_create", 200);
  BotSettings capped = seeking(settings(), state_dir);
  capped.set("challenge", "max_bot_games_per_day", "1");
  BotProcess& again = start_bot(capped);
  ASSERT_TRUE(again.wait_log("daily bot-game limit reached (1 of 1 in 24 h)", 30s)) << again.log();
  EXPECT_EQ(
      status_count(*emu_, "challenge_create", 429) + status_count(*emu_, "challenge_create", 200),
      creates_before);
}

TEST_F(E2eDesk, ThreeChallengesForTwoSlotsAreAllPlayed) {
  start_emulator({"--challenge-ttl-ms", "120000"});
  BotSettings s = settings();
  s.set("challenge", "max_concurrent_games", "2").set("challenge", "queue_order", "first");
  // A lost accept answer on the way: the desk's worker retries it, the event stream never waits.
  emu_->add_faults(Json{{"target", "challenge_accept"}, {"status", 502}, {"count", 1}});
  BotProcess& bot = start_bot(s);
  // Challenges issued while the stream is open arrive in order (a replay on connect does not
  // keep it).
  ASSERT_TRUE(bot.wait_log("event stream connected", 60s)) << bot.log();
  const Json quick = {{"type", "random"}, {"resign_at_ply", 12}, {"delay_ms", 30}};
  std::vector<std::string> challenges;
  for (const char* user : {"Ann", "Bob", "Cid"})
    challenges.push_back(emu_->challenge(challenge_spec(user, false, quick, 180, 2)));
  // A fourth that gives up while it waits never becomes a game.
  const std::string quitter = emu_->challenge(challenge_spec("Quitter", false, quick, 180, 2));
  ASSERT_TRUE(bot.wait_log("waits for a free slot", 20s, 2)) << bot.log();
  emu_->post("/admin/challenge/" + quitter + "/cancel");
  ASSERT_TRUE(bot.wait_log("withdrawn while waiting", 20s)) << bot.log();

  std::vector<std::string> games;
  for (const auto& c : challenges) games.push_back(accepted_game(c, 90s));
  for (const auto& id : games) ASSERT_FALSE(id.empty()) << bot.log();
  for (const auto& id : games) expect_clean_finish(id, 90s);
  EXPECT_EQ(emu_->challenge_state(quitter).value("status", ""), "canceled");
  EXPECT_EQ(emu_->get("/admin/games").size(), 3u);
  for (const auto& c : challenges)
    EXPECT_NE(emu_->challenge_state(c).value("status", ""), "declined") << c;
  // The third waited for a slot rather than being declined with `later`.
  EXPECT_NE(bot.log().find("a slot is free: accepting waiting challenge " + challenges[2]),
            std::string::npos)
      << bot.log();
}

TEST_F(E2eDesk, CorrespondenceAndUnlimitedChallengesAreDeclinedAsTooSlow) {
  start_emulator();
  BotProcess& bot = start_connected_bot(settings());
  Json days = challenge_spec("Corr", false, engine_opponent(), 180, 0);
  days["days"] = 3;
  Json unlimited = challenge_spec("Forever", false, engine_opponent(), 180, 0);
  unlimited["unlimited"] = true;
  for (const auto& spec : {days, unlimited}) {
    const std::string id = emu_->challenge(spec);
    std::string reason;
    ASSERT_TRUE(eventually(
        [&] {
          reason = emu_->challenge_state(id).value("declineReasonKey", "");
          return !reason.empty();
        },
        15s))
        << bot.log();
    EXPECT_EQ(reason, "tooslow");
  }
  EXPECT_TRUE(emu_->get("/admin/games").empty());
}

}  // namespace
}  // namespace zh::e2e
