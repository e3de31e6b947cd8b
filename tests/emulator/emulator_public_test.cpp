// What a BOT client reads besides the Bot API, as the official spec defines it: token test,
// user status, user public data, game export (PGN and JSON, ongoing games 3 plies behind) and
// the challenge list.
#include <gtest/gtest.h>

#include "tests/emulator/emulator_harness.h"

namespace zh::emulator::test {
namespace {

TEST(EmulatorPublic, TokenTestNamesTheUserAndScopesOfGoodTokensAndNullForOthers) {
  EmulatorProcess emu;
  httplib::Client c("127.0.0.1", emu.port());
  // No Authorization header: the tokens are the request body (text/plain, comma-separated).
  auto r = c.Post("/api/token/test", "lip_emulator_token,lip_notAToken", "text/plain");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200);
  const Json j = Json::parse(r->body);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["lip_emulator_token"]["userId"], "zhbot");
  EXPECT_NE(j["lip_emulator_token"]["scopes"].get<std::string>().find("bot:play"),
            std::string::npos);
  EXPECT_TRUE(j["lip_emulator_token"]["expires"].is_null());
  ASSERT_TRUE(j.contains("lip_notAToken"));
  EXPECT_TRUE(j["lip_notAToken"].is_null());
  auto empty = c.Post("/api/token/test", "", "text/plain");
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->status, 400);
}

TEST(EmulatorPublic, UsersStatusShowsWhoIsOnlineAndPlaying) {
  EmulatorProcess emu;
  auto before = emu.get("/api/users/status?ids=zhbot,nobody", "");
  ASSERT_TRUE(before);
  ASSERT_EQ(before->status, 200);
  Json j = Json::parse(before->body);
  ASSERT_EQ(j.size(), 1u) << j.dump();  // unknown users are left out
  EXPECT_EQ(j[0]["id"], "zhbot");
  EXPECT_EQ(j[0]["title"], "BOT");
  EXPECT_FALSE(j[0].contains("online")) << "offline until the event stream is open";

  NdjsonStream events(emu.port(), "/api/stream/event");
  const std::string id = accept_new_challenge(
      emu, events, {{"user", {{"name", "Alice"}}}, {"opponent", {{"type", "idle"}}}});
  j = Json::parse(emu.get("/api/users/status?ids=ZhBot,alice&withGameIds=true", "")->body);
  ASSERT_EQ(j.size(), 2u) << j.dump();
  EXPECT_EQ(j[0]["online"], true);
  EXPECT_EQ(j[0]["playing"], true);
  EXPECT_EQ(j[1]["id"], "alice");
  EXPECT_EQ(j[1]["playingId"], id);
  EXPECT_EQ(emu.get("/api/users/status", "")->status, 400);  // ids is required
}

TEST(EmulatorPublic, UserPublicDataForKnownUsersAnd404Otherwise) {
  EmulatorProcess emu;
  auto me = emu.get("/api/user/ZhBot", "");
  ASSERT_TRUE(me);
  ASSERT_EQ(me->status, 200);
  const Json j = Json::parse(me->body);
  EXPECT_EQ(j["id"], "zhbot");
  EXPECT_EQ(j["username"], "zhbot");
  EXPECT_EQ(j["title"], "BOT");
  EXPECT_TRUE(j["perfs"].contains("crazyhouse"));
  EXPECT_TRUE(j.contains("createdAt"));
  emu.admin_post("/admin/users", {{"name", "Fairy_Bot"}, {"title", "BOT"}});
  EXPECT_EQ(Json::parse(emu.get("/api/user/fairy_bot", "")->body)["username"], "Fairy_Bot");
  auto unknown = emu.get("/api/user/nobody", "");
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->status, 404);
  EXPECT_TRUE(Json::parse(unknown->body).contains("error"));
}

TEST(EmulatorPublic, GameExportIsPgnOrJsonAndThreePliesBehindWhileTheGameRuns) {
  EmulatorProcess emu;
  NdjsonStream events(emu.port(), "/api/stream/event");
  const std::string id = accept_new_challenge(
      emu, events,
      {{"color", "black"}, {"opponent", {{"type", "script"}, {"moves", {"e7e5", "g8f6"}}}}});
  ASSERT_EQ(emu.post("/api/bot/game/" + id + "/move/e2e4")->status, 200);
  emu.wait_game(id, [](const Json& g) { return g.value("plies", 0) >= 2; });
  ASSERT_EQ(emu.post("/api/bot/game/" + id + "/move/g1f3")->status, 200);
  emu.wait_game(id, [](const Json& g) { return g.value("plies", 0) >= 4; });

  httplib::Client c("127.0.0.1", emu.port());
  auto pgn = c.Get(("/game/export/" + id).c_str());
  ASSERT_TRUE(pgn);
  ASSERT_EQ(pgn->status, 200);
  EXPECT_NE(pgn->get_header_value("Content-Type").find("chess-pgn"), std::string::npos);
  EXPECT_NE(pgn->body.find("[Variant \"Crazyhouse\"]"), std::string::npos) << pgn->body;
  EXPECT_NE(pgn->body.find("1. e4 *"), std::string::npos) << "4 plies, 3 hidden:\n" << pgn->body;
  auto ongoing = c.Get(("/game/export/" + id).c_str(), {{"Accept", "application/json"}});
  ASSERT_TRUE(ongoing);
  Json j = Json::parse(ongoing->body);
  EXPECT_EQ(j["id"], id);
  EXPECT_EQ(j["moves"], "e4");
  EXPECT_EQ(j["status"], "started");
  EXPECT_EQ(j["variant"], "crazyhouse");
  EXPECT_EQ(j["players"]["white"]["user"]["id"], "zhbot");
  for (const char* key : {"rated", "speed", "perf", "createdAt", "lastMoveAt"})
    EXPECT_TRUE(j.contains(key)) << key;

  ASSERT_EQ(emu.post("/api/bot/game/" + id + "/resign")->status, 200);
  emu.wait_game(id, [](const Json& g) { return g.value("status", "") != "started"; });
  j = Json::parse(
      c.Get(("/game/export/" + id + "?pgnInJson=true").c_str(), {{"Accept", "application/json"}})
          ->body);
  EXPECT_EQ(j["moves"], "e4 e5 Nf3 Nf6") << "a finished game is exported whole";
  EXPECT_EQ(j["status"], "resign");
  EXPECT_EQ(j["winner"], "black");
  EXPECT_NE(j.value("pgn", "").find("0-1"), std::string::npos) << j.dump();
  EXPECT_EQ(c.Get("/game/export/nosuchgm")->status, 404);
}

TEST(EmulatorPublic, ChallengeListShowsPendingChallengesToTheTokenHolder) {
  EmulatorProcess emu;
  const Json c = emu.admin_post("/admin/challenge", {{"user", {{"name", "Bob"}}}});
  auto r = emu.get("/api/challenge");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200);
  const Json j = Json::parse(r->body);
  ASSERT_EQ(j["in"].size(), 1u) << j.dump();
  EXPECT_EQ(j["in"][0]["id"], c["id"]);
  EXPECT_EQ(j["in"][0]["direction"], "in");
  EXPECT_TRUE(j["out"].empty());
  EXPECT_EQ(emu.get("/api/challenge", "wrong")->status, 401);
}

}  // namespace
}  // namespace zh::emulator::test
