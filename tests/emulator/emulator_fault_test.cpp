// Fault injection as a client sees it: 429 with and without a body, 5xx, dropped, truncated,
// garbage, duplicated and silent streams, seeded randomness, and a whole-server restart.
#include <gtest/gtest.h>

#include "tests/emulator/emulator_harness.h"

namespace zh::emulator::test {
namespace {

TEST(EmulatorFaults, RateLimitWithBodyThenTheRetrySucceeds) {
  EmulatorProcess emu;
  NdjsonStream events(emu.port(), "/api/stream/event");
  const std::string id =
      accept_new_challenge(emu, events, {{"color", "black"}, {"opponent", {{"type", "idle"}}}});
  emu.admin_post("/admin/faults", {{"target", "move"}, {"status", 429}, {"count", 1}});
  auto limited = emu.post("/api/bot/game/" + id + "/move/e2e4");
  ASSERT_TRUE(limited);
  EXPECT_EQ(limited->status, 429);
  const Json body = Json::parse(limited->body);
  EXPECT_TRUE(body.contains("error"));
  EXPECT_EQ(body["ratelimit"]["seconds"], 60);
  EXPECT_EQ(emu.admin_get("/admin/games/" + id)["plies"], 0);  // the move was not played
  EXPECT_EQ(emu.post("/api/bot/game/" + id + "/move/e2e4")->status, 200);
}

TEST(EmulatorFaults, BareRateLimitAndServerErrors) {
  EmulatorProcess emu;
  emu.admin_post("/admin/faults",
                 {{"rules",
                   {{{"target", "account"}, {"status", 429}, {"ratelimit_body", false}},
                    {{"target", "account"}, {"status", 500}},
                    {{"target", "account"}, {"status", 502}},
                    {{"target", "account"}, {"status", 503}}}}});
  auto bare = emu.get("/api/account");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->status, 429);
  EXPECT_NE(bare->get_header_value("Content-Type").find("text/html"), std::string::npos);
  EXPECT_NE(bare->body.find("too many requests"), std::string::npos);
  EXPECT_EQ(emu.get("/api/account")->status, 500);
  EXPECT_EQ(emu.get("/api/account")->status, 502);
  EXPECT_EQ(emu.get("/api/account")->status, 503);
  EXPECT_EQ(emu.get("/api/account")->status, 200);  // each rule hit once
  const Json log = emu.admin_get("/admin/log");
  ASSERT_EQ(log.size(), 5u);
  EXPECT_EQ(log[0]["status"], 429);
  EXPECT_EQ(log[3]["status"], 503);
}

TEST(EmulatorFaults, EventStreamDroppedAfterNLines) {
  EmulatorProcess emu;
  emu.admin_post("/admin/challenge", Json::object());
  emu.admin_post("/admin/challenge", Json::object());
  emu.admin_post("/admin/faults", {{"target", "event_stream"}, {"drop_after_lines", 1}});
  NdjsonStream events(emu.port(), "/api/stream/event");
  EXPECT_TRUE(events.wait_ended(30s));
  EXPECT_FALSE(events.ended_cleanly());
  EXPECT_EQ(events.json_lines().size(), 1u);
  // The rule was for one connection: the reconnect gets both challenges again.
  NdjsonStream again(emu.port(), "/api/stream/event");
  EXPECT_TRUE(again.wait_type("challenge"));
  EXPECT_TRUE(again.wait_type("challenge"));
  EXPECT_EQ(emu.admin_get("/admin/stats")["event_stream_opens"], 2);
}

TEST(EmulatorFaults, GarbageUnknownAndDuplicatedLinesOnTheGameStream) {
  EmulatorProcess emu;
  NdjsonStream events(emu.port(), "/api/stream/event");
  const std::string id = accept_new_challenge(emu, events, {{"opponent", {{"type", "idle"}}}});
  emu.admin_post("/admin/faults", {{"target", "game_stream"},
                                   {"garbage_probability", 1.0},
                                   {"unknown_probability", 1.0},
                                   {"duplicate_probability", 1.0}});
  NdjsonStream game(emu.port(), "/api/bot/game/stream/" + id);
  // Each line comes as: a garbage line, an unknown event, the line, the line again.
  ASSERT_TRUE(game.wait_type("gameFull"));
  EXPECT_TRUE(game.wait_type("gameFull"));  // the duplicate
  const auto lines = game.json_lines();
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0]["type"], "emulatorUnknownEvent");
  EXPECT_EQ(game.bad_lines(), 1);
}

TEST(EmulatorFaults, TruncatedLineThenTheConnectionDrops) {
  EmulatorProcess emu;
  NdjsonStream events(emu.port(), "/api/stream/event");
  const std::string id = accept_new_challenge(emu, events, {{"opponent", {{"type", "idle"}}}});
  emu.admin_post("/admin/faults", {{"target", "game_stream"}, {"truncate_after_lines", 0}});
  NdjsonStream game(emu.port(), "/api/bot/game/stream/" + id);
  EXPECT_TRUE(game.wait_ended(30s));
  EXPECT_FALSE(game.ended_cleanly());
  EXPECT_TRUE(game.json_lines().empty());
}

TEST(EmulatorFaults, StalledStreamSendsNothingNotEvenHeartbeats) {
  EmulatorProcess emu;
  NdjsonStream events(emu.port(), "/api/stream/event");
  const std::string id =
      accept_new_challenge(emu, events, {{"color", "black"}, {"opponent", {{"type", "idle"}}}});
  emu.admin_post("/admin/faults", {{"target", "game_stream"}, {"stall_after_lines", 1}});
  NdjsonStream game(emu.port(), "/api/bot/game/stream/" + id);
  ASSERT_TRUE(game.wait_type("gameFull"));
  const int beats = game.heartbeats();
  ASSERT_EQ(emu.post("/api/bot/game/" + id + "/move/e2e4")->status, 200);
  // A healthy reconnect replaces the stalled stream and sees the move.
  NdjsonStream fresh(emu.port(), "/api/bot/game/stream/" + id);
  auto full = fresh.wait_type("gameFull");
  ASSERT_TRUE(full);
  EXPECT_EQ(full->at("state")["moves"], "e2e4");
  // The witness: once the healthy stream has had three heartbeats (every 200 ms), a stream that
  // was not stalled would have had the move's gameState and heartbeats of its own.
  ASSERT_TRUE(within_30s([&] { return fresh.heartbeats() >= 3; }));
  EXPECT_FALSE(game.wait_type("gameState", std::chrono::milliseconds(0)));
  EXPECT_EQ(game.heartbeats(), beats);
}

TEST(EmulatorFaults, HeartbeatsCanBeStoppedAndStreamsSlowed) {
  EmulatorProcess emu;
  emu.admin_post("/admin/faults",
                 {{"target", "event_stream"}, {"no_heartbeat", true}, {"slow_ms", 300}});
  const auto opened = std::chrono::steady_clock::now();
  NdjsonStream events(emu.port(), "/api/stream/event");
  const std::string id = accept_new_challenge(emu, events, {{"opponent", {{"type", "idle"}}}});
  EXPECT_GE(std::chrono::steady_clock::now() - opened, 300ms);
  // The witness: a game stream (not faulted) of the same emulator gets three heartbeats; the
  // event stream, open all that time, got none.
  NdjsonStream game(emu.port(), "/api/bot/game/stream/" + id);
  ASSERT_TRUE(within_30s([&] { return game.heartbeats() >= 3; }));
  EXPECT_EQ(events.heartbeats(), 0);
}

TEST(EmulatorFaults, RandomFaultsAreReproducibleFromTheSeed) {
  auto statuses = [](const char* seed) {
    EmulatorProcess emu({"--seed", seed, "--faults",
                         R"({"target":"account","status":503,"probability":0.5,"count":0})"});
    std::string out;
    for (int i = 0; i < 24; ++i) out += emu.get("/api/account")->status == 200 ? '.' : 'x';
    return out;
  };
  const std::string a = statuses("11");
  EXPECT_EQ(a, statuses("11"));
  EXPECT_NE(a.find('x'), std::string::npos);
  EXPECT_NE(a.find('.'), std::string::npos);
}

TEST(EmulatorFaults, RestartDropsConnectionsAndKeepsGames) {
  EmulatorProcess emu;
  NdjsonStream events(emu.port(), "/api/stream/event");
  const std::string id =
      accept_new_challenge(emu, events, {{"color", "black"}, {"opponent", {{"type", "idle"}}}});
  ASSERT_EQ(emu.post("/api/bot/game/" + id + "/move/e2e4")->status, 200);
  NdjsonStream game(emu.port(), "/api/bot/game/stream/" + id);
  ASSERT_TRUE(game.wait_type("gameFull"));
  // Down long enough that the check below falls inside the gap on any machine.
  emu.admin_post("/admin/restart?down_ms=3000");
  EXPECT_TRUE(events.wait_ended(30s));
  EXPECT_TRUE(game.wait_ended(30s));
  EXPECT_FALSE(events.ended_cleanly());
  EXPECT_FALSE(emu.get("/api/account"));  // nobody listening while it is down
  bool back = false;
  for (int i = 0; i < 600 && !back; ++i) {
    std::this_thread::sleep_for(50ms);
    auto r = emu.get("/api/account");
    back = r && r->status == 200;
  }
  ASSERT_TRUE(back);
  NdjsonStream again(emu.port(), "/api/stream/event");
  auto start = again.wait_type("gameStart");
  ASSERT_TRUE(start);
  EXPECT_EQ(start->at("game")["gameId"], id);
  NdjsonStream game2(emu.port(), "/api/bot/game/stream/" + id);
  auto full = game2.wait_type("gameFull");
  ASSERT_TRUE(full);
  EXPECT_EQ(full->at("state")["moves"], "e2e4");
}

}  // namespace
}  // namespace zh::emulator::test
