// The Bot API as a bot sees it: auth, account, event stream behaviour, challenges, game stream.
#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include "tests/emulator/emulator_harness.h"

namespace zh::emulator::test {
namespace {

bool is_game_state_with(const Json& j, const std::string& moves) {
  return j.value("type", "") == "gameState" && j.value("moves", "") == moves;
}

TEST(EmulatorApi, AccountNeedsAValidBearerToken) {
  EmulatorProcess emu;
  auto ok = emu.get("/api/account");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200);
  const Json me = Json::parse(ok->body);
  EXPECT_EQ(me["id"], "zhbot");
  EXPECT_EQ(me["title"], "BOT");
  EXPECT_TRUE(me["perfs"].contains("crazyhouse"));
  auto bad = emu.get("/api/account", "wrong_token");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 401);
  EXPECT_TRUE(Json::parse(bad->body).contains("error"));
}

TEST(EmulatorApi, UpgradeMakesANormalAccountABot) {
  EmulatorProcess emu({"--not-bot"});
  EXPECT_FALSE(Json::parse(emu.get("/api/account")->body).contains("title"));
  EXPECT_EQ(emu.get("/api/bot/game/stream/abcdefgh")->status, 400);  // bots only
  EXPECT_EQ(emu.post("/api/bot/account/upgrade")->status, 200);
  EXPECT_EQ(Json::parse(emu.get("/api/account")->body)["title"], "BOT");
  EXPECT_EQ(emu.post("/api/bot/account/upgrade")->status, 400);  // only once
}

TEST(EmulatorApi, ChallengeAcceptThenGameStreamThenMoves) {
  EmulatorProcess emu;
  NdjsonStream events(emu.port(), "/api/stream/event");
  const Json c =
      emu.admin_post("/admin/challenge", {{"user", {{"name", "Alice"}, {"rating", 1700}}},
                                          {"limit_s", 60},
                                          {"increment_s", 1},
                                          {"color", "black"},
                                          {"opponent", {{"type", "script"}, {"moves", {"e7e5"}}}}});
  const std::string id = c["id"];
  auto challenge = events.wait_type("challenge");
  ASSERT_TRUE(challenge);
  EXPECT_EQ(challenge->at("challenge")["id"], id);
  EXPECT_EQ(challenge->at("challenge")["variant"]["key"], "crazyhouse");
  EXPECT_EQ(challenge->at("challenge")["challenger"]["name"], "Alice");
  EXPECT_EQ(challenge->at("challenge")["timeControl"]["limit"], 60);
  EXPECT_EQ(challenge->at("challenge")["speed"], "bullet");
  EXPECT_EQ(challenge->at("compat")["bot"], true);

  ASSERT_EQ(emu.post("/api/challenge/" + id + "/accept")->status, 200);
  auto start = events.wait_type("gameStart");
  ASSERT_TRUE(start);
  EXPECT_EQ(start->at("game")["gameId"], id);
  EXPECT_EQ(start->at("game")["color"], "white");
  EXPECT_EQ(start->at("game")["isMyTurn"], true);
  EXPECT_EQ(start->at("game")["fullId"].get<std::string>().size(), 12u);

  NdjsonStream game(emu.port(), "/api/bot/game/stream/" + id);
  auto full = game.wait_type("gameFull");
  ASSERT_TRUE(full);
  EXPECT_EQ(full->at("id"), id);
  EXPECT_EQ(full->at("initialFen"), "startpos");
  EXPECT_EQ(full->at("clock")["initial"], 60000);
  EXPECT_EQ(full->at("clock")["increment"], 1000);
  EXPECT_EQ(full->at("white")["id"], "zhbot");
  EXPECT_EQ(full->at("state")["moves"], "");
  EXPECT_EQ(full->at("state")["status"], "started");

  auto r = emu.post("/api/bot/game/" + id + "/move/e2e4");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(Json::parse(r->body)["ok"], true);
  EXPECT_TRUE(game.wait_for([](const Json& j) { return is_game_state_with(j, "e2e4"); }));
  auto reply = game.wait_for([](const Json& j) { return is_game_state_with(j, "e2e4 e7e5"); });
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->at("status"), "started");
  EXPECT_FALSE(reply->contains("expiration"));  // both sides have moved

  auto playing = Json::parse(emu.get("/api/account/playing")->body);
  ASSERT_EQ(playing["nowPlaying"].size(), 1u);
  EXPECT_EQ(playing["nowPlaying"][0]["gameId"], id);
  EXPECT_EQ(playing["nowPlaying"][0]["lastMove"], "e7e5");
  EXPECT_EQ(playing["nbMyTurn"], 1);
}

TEST(EmulatorApi, IllegalAndOutOfTurnMovesAreRefusedWith400) {
  EmulatorProcess emu;
  NdjsonStream events(emu.port(), "/api/stream/event");
  const std::string id =
      accept_new_challenge(emu, events, {{"color", "black"}, {"opponent", {{"type", "idle"}}}});
  auto illegal = emu.post("/api/bot/game/" + id + "/move/e2e5");
  ASSERT_TRUE(illegal);
  EXPECT_EQ(illegal->status, 400);
  EXPECT_NE(Json::parse(illegal->body)["error"].get<std::string>().find("Invalid UCI"),
            std::string::npos);
  EXPECT_EQ(emu.post("/api/bot/game/" + id + "/move/p@e4")->status, 400);  // drops are upper case
  EXPECT_EQ(emu.post("/api/bot/game/" + id + "/move/e2e4")->status, 200);
  auto again = emu.post("/api/bot/game/" + id + "/move/e7e5");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 400);
  EXPECT_EQ(Json::parse(again->body)["error"], "Not your turn, or game already over");
  EXPECT_EQ(emu.post("/api/bot/game/nosuchid/move/e2e4")->status, 404);
  const Json g = emu.admin_get("/admin/games/" + id);
  EXPECT_EQ(g["moves"], "e2e4");
  EXPECT_EQ(g["rejected_moves"], 3);
}

TEST(EmulatorApi, EventStreamSendsHeartbeatsAndANewOneClosesTheOld) {
  EmulatorProcess emu;
  NdjsonStream first(emu.port(), "/api/stream/event");
  // A heartbeat every 200 ms in tests: they keep coming.
  EXPECT_TRUE(within_30s([&] { return first.heartbeats() >= 2; }));
  NdjsonStream second(emu.port(), "/api/stream/event");
  EXPECT_TRUE(first.wait_ended(30s));
  // The new one lives on: it gets heartbeats after the old one was closed.
  EXPECT_TRUE(within_30s([&] { return second.heartbeats() >= 2; }));
  EXPECT_FALSE(second.wait_ended(0ms));
}

TEST(EmulatorApi, EventStreamReplaysOngoingGamesAndPendingChallenges) {
  EmulatorProcess emu;
  std::string game_id;
  {
    NdjsonStream events(emu.port(), "/api/stream/event");
    game_id = accept_new_challenge(emu, events, {{"opponent", {{"type", "idle"}}}});
  }
  const std::string pending = emu.admin_post("/admin/challenge", Json::object())["id"];
  NdjsonStream again(emu.port(), "/api/stream/event");
  auto start = again.wait_type("gameStart");
  ASSERT_TRUE(start);
  EXPECT_EQ(start->at("game")["gameId"], game_id);
  auto challenge = again.wait_type("challenge");
  ASSERT_TRUE(challenge);
  EXPECT_EQ(challenge->at("challenge")["id"], pending);
}

TEST(EmulatorApi, DeclineRecordsTheReasonKey) {
  EmulatorProcess emu;
  const std::string id = emu.admin_post("/admin/challenge", {{"variant", "atomic"}})["id"];
  EXPECT_EQ(emu.post("/api/challenge/" + id + "/decline", "reason=variant")->status, 200);
  const Json c = emu.admin_get("/admin/challenge/" + id);
  EXPECT_EQ(c["status"], "declined");
  EXPECT_EQ(c["declineReasonKey"], "variant");
  EXPECT_EQ(emu.post("/api/challenge/" + id + "/accept")->status, 404);  // gone
  const std::string other = emu.admin_post("/admin/challenge", Json::object())["id"];
  emu.post("/api/challenge/" + other + "/decline", "reason=tooFast");
  EXPECT_EQ(emu.admin_get("/admin/challenge/" + other)["declineReasonKey"], "toofast");
}

TEST(EmulatorApi, OutgoingChallengeIsAcceptedBySimulatedUser) {
  EmulatorProcess emu;
  emu.admin_post("/admin/users",
                 {{"name", "Fairy_Bot"}, {"title", "BOT"}, {"opponent", {{"type", "idle"}}}});
  auto online = emu.get("/api/bot/online", "");
  ASSERT_TRUE(online);
  EXPECT_NE(online->body.find("\"fairy_bot\""), std::string::npos);
  NdjsonStream events(emu.port(), "/api/stream/event");
  auto r = emu.post("/api/challenge/Fairy_Bot",
                    "clock.limit=60&clock.increment=1&variant=crazyhouse&color=white");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200);
  const Json c = Json::parse(r->body);
  EXPECT_EQ(c["direction"], "out");
  EXPECT_EQ(c["finalColor"], "white");
  auto start = events.wait_type("gameStart");
  ASSERT_TRUE(start);
  EXPECT_EQ(start->at("game")["gameId"], c["id"]);
  EXPECT_EQ(start->at("game")["color"], "white");
  EXPECT_EQ(emu.post("/api/challenge/Nobody", "clock.limit=60&clock.increment=0")->status, 400);
}

TEST(EmulatorApi, TheDailyBotGameLimitAnswers429WithItsKey) {
  EmulatorProcess emu({"--bot-games-per-day", "1"});
  emu.admin_post("/admin/users",
                 {{"name", "Fairy_Bot"}, {"title", "BOT"}, {"opponent", {{"type", "idle"}}}});
  emu.admin_post("/admin/users", {{"name", "Human"}, {"opponent", {{"type", "idle"}}}});
  NdjsonStream events(emu.port(), "/api/stream/event");
  ASSERT_EQ(
      emu.post("/api/challenge/Fairy_Bot", "clock.limit=60&clock.increment=1&variant=crazyhouse")
          ->status,
      200);
  ASSERT_TRUE(events.wait_type("gameStart"));  // the one bot game of the day
  auto limited =
      emu.post("/api/challenge/Fairy_Bot", "clock.limit=60&clock.increment=1&variant=crazyhouse");
  ASSERT_TRUE(limited);
  EXPECT_EQ(limited->status, 429);
  const Json body = Json::parse(limited->body);
  EXPECT_EQ(body["ratelimit"]["key"], "bot.vsBot.day");
  EXPECT_GT(body["ratelimit"]["seconds"].get<int>(), 0);
  // Humans are not limited.
  EXPECT_EQ(emu.post("/api/challenge/Human", "clock.limit=60&clock.increment=1&variant=crazyhouse")
                ->status,
            200);
  EXPECT_EQ(emu.admin_get("/admin/stats")["bot_games_started"], 1);
}

TEST(EmulatorApi, AUserThatIgnoresChallengesLetsThemExpire) {
  EmulatorProcess emu({"--challenge-ttl-ms", "500"});
  emu.admin_post("/admin/users", {{"name", "Sleepy"}, {"title", "BOT"}, {"ignores", true}});
  NdjsonStream events(emu.port(), "/api/stream/event");
  auto r = emu.post("/api/challenge/Sleepy", "clock.limit=60&clock.increment=1&variant=crazyhouse");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200);
  auto canceled = events.wait_type("challengeCanceled", 5s);
  ASSERT_TRUE(canceled);
  EXPECT_EQ(canceled->at("challenge")["id"], Json::parse(r->body)["id"]);
}

TEST(EmulatorApi, ChatIsEchoedAndListed) {
  EmulatorProcess emu;
  NdjsonStream events(emu.port(), "/api/stream/event");
  const std::string id = accept_new_challenge(emu, events, {{"opponent", {{"type", "idle"}}}});
  NdjsonStream game(emu.port(), "/api/bot/game/stream/" + id);
  ASSERT_TRUE(game.wait_type("gameFull"));
  EXPECT_EQ(emu.post("/api/bot/game/" + id + "/chat", "room=player&text=Good+luck")->status, 200);
  auto line = game.wait_type("chatLine");
  ASSERT_TRUE(line);
  EXPECT_EQ(line->at("text"), "Good luck");
  EXPECT_EQ(line->at("username"), "zhbot");
  EXPECT_EQ(line->at("room"), "player");
  const Json chat = Json::parse(emu.get("/api/bot/game/" + id + "/chat")->body);
  ASSERT_TRUE(chat.is_array());
  EXPECT_EQ(chat.back()["text"], "Good luck");
  EXPECT_EQ(emu.post("/api/bot/game/" + id + "/chat", "room=lobby&text=x")->status, 400);
}

TEST(EmulatorApi, RequestLogRecordsMethodPathStatus) {
  EmulatorProcess emu;
  emu.get("/api/account");
  emu.get("/api/account", "bad");
  const Json log = emu.admin_get("/admin/log");
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0]["method"], "GET");
  EXPECT_EQ(log[0]["path"], "/api/account");
  EXPECT_EQ(log[0]["status"], 200);
  EXPECT_EQ(log[1]["status"], 401);
  EXPECT_GE(log[1]["at_ms"].get<int>(), log[0]["at_ms"].get<int>());
  EXPECT_EQ(emu.admin_get("/admin/log?since=1").size(), 1u);
}

}  // namespace
}  // namespace zh::emulator::test
