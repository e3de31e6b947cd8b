#include "bot/status/status_json.h"

#include <gtest/gtest.h>

#include "tests/bot/status/status_fixtures.h"

namespace zh::bot {
namespace {

using nlohmann::json;

StatusSnapshot full_snapshot() {
  StatusSnapshot s;
  s.version = "1.2.3";
  s.now_unix_ms = 1700000002000;
  s.started_unix_ms = 1699999000000;
  s.connection = {
      "ZhBot",       "BOT", 2012, true, 1699999500000, 2, "event stream lost: closed by the server",
      1699999400000, false};
  s.evaluator.backend = "torch";
  s.evaluator.device = "cuda:0";
  s.evaluator.precision = "fp16";
  s.evaluator.healthy = true;
  s.evaluator.failures = 3;
  s.evaluator.nodes_per_second = 41000;
  s.evaluator.batch_fill = 0.625;
  s.evaluator.forward_us = 900;
  s.games = {test::sample_game()};
  s.desk = test::sample_desk();
  s.declines = {test::sample_decline()};
  FinishedGame f;
  f.id = "done0001";
  f.url = "https://lichess.org/done0001";
  f.color = "white";
  f.opponent = {"Beaten", "", 1950};
  f.result = "win";
  f.rated = true;
  f.speed = "rapid";
  f.our_rating = 2005;
  f.rating_diff = 7;
  f.plies = 61;
  f.ended_unix_ms = 1699999900000;
  s.finished = {f};
  s.rating_history = {{1699999000000, 2005}, {1699999900000, 2012}};
  return s;
}

TEST(StatusJson, EveryFieldIsThere) {
  const json j = status_json(full_snapshot());
  EXPECT_EQ(j["version"], "1.2.3");
  EXPECT_EQ(j["now_unix_ms"], 1700000002000);
  EXPECT_EQ(j["started_unix_ms"], 1699999000000);
  EXPECT_EQ(j["healthy"], true);

  const json& c = j["connection"];
  EXPECT_EQ(c["account"], "ZhBot");
  EXPECT_EQ(c["title"], "BOT");
  EXPECT_EQ(c["rating"], 2012);
  EXPECT_EQ(c["event_stream_up"], true);
  EXPECT_EQ(c["up_since_unix_ms"], 1699999500000);
  EXPECT_EQ(c["reconnects"], 2);
  EXPECT_EQ(c["last_error"], "event stream lost: closed by the server");
  EXPECT_EQ(c["last_error_unix_ms"], 1699999400000);
  EXPECT_EQ(c["draining"], false);

  const json& e = j["evaluator"];
  EXPECT_EQ(e["backend"], "torch");
  EXPECT_EQ(e["device"], "cuda:0");
  EXPECT_EQ(e["precision"], "fp16");
  EXPECT_EQ(e["healthy"], true);
  EXPECT_EQ(e["failures"], 3);
  EXPECT_EQ(e["nodes_per_second"], 41000.0);
  EXPECT_EQ(e["batch_fill"], 0.625);
  EXPECT_EQ(e["forward_us"], 900.0);

  ASSERT_EQ(j["games"].size(), 1u);
  const json& g = j["games"][0];
  EXPECT_EQ(g["id"], "abcd1234");
  EXPECT_EQ(g["url"], "https://lichess.org/abcd1234");
  EXPECT_EQ(g["color"], "black");
  EXPECT_EQ(g["opponent"], (json{{"name", "Rival"}, {"title", "GM"}, {"rating", 2450}}));
  EXPECT_EQ(g["our_rating"], 2012);
  EXPECT_EQ(g["rated"], true);
  EXPECT_EQ(g["speed"], "blitz");
  EXPECT_EQ(g["clock"], (json{{"initial_ms", 180000},
                              {"increment_ms", 2000},
                              {"white_ms", 151000},
                              {"black_ms", 163500},
                              {"at_unix_ms", 1700000000000}}));
  const json& b = g["board"];
  EXPECT_EQ(b["fen"], "r1b1kbnr/ppp1pppp/2n5/3q4/1P6/8/P1PP1PPP/RNBQKBNR/Ppp w KQkq - 0 4");
  EXPECT_EQ(b["side_to_move"], "white");
  EXPECT_EQ(b["pockets"], (json{{"white", "P"}, {"black", "pp"}}));
  EXPECT_EQ(b["last_move"], "b8c6");
  EXPECT_EQ(b["recent_moves"], (json{"e4", "d5", "exd5", "Qxd5", "b4", "Nc6"}));
  EXPECT_EQ(b["plies"], 6);
  EXPECT_EQ(g["thinking"], true);
  EXPECT_EQ(g["eval"], (json{{"ply", 6}, {"cp", -35}, {"mate", nullptr}}));
  EXPECT_EQ(g["nodes"], 12000);
  EXPECT_EQ(g["nps"], 41000);
  ASSERT_EQ(g["eval_history"].size(), 3u);
  EXPECT_EQ(g["eval_history"][1], (json{{"ply", 4}, {"cp", -20}, {"mate", nullptr}}));

  ASSERT_EQ(j["queue"].size(), 1u);
  EXPECT_EQ(j["queue"][0],
            (json{{"id", "chal0001"},
                  {"challenger", {{"name", "Waiter"}, {"title", ""}, {"rating", 1800}}},
                  {"speed", "blitz"},
                  {"time_control", "180+2"},
                  {"rated", true},
                  {"arrived_unix_ms", 1700000000500}}));
  ASSERT_EQ(j["declines"].size(), 1u);
  EXPECT_EQ(j["declines"][0],
            (json{{"id", "chal0002"},
                  {"challenger", {{"name", "Speedy"}, {"title", "BOT"}, {"rating", 1900}}},
                  {"time_control", "15+0"},
                  {"reason", "tooFast"},
                  {"detail", "15+0 is faster than 60 s"},
                  {"at_unix_ms", 1700000001000}}));
  EXPECT_EQ(
      j["matchmaking"],
      (json{{"enabled", true},
            {"challenging", "OtherBot"},
            {"challenge_clock", "180+2"},
            {"next_seek_unix_ms", 1700000060000},
            {"bot_games_paused_until_unix_ms", 0},
            {"bot_games_24h", 7},
            {"declined_by",
             {{{"user", "shybot"}, {"reason", "later"}, {"until_unix_ms", 1700003600000}}}}}));
  ASSERT_EQ(j["finished"].size(), 1u);
  EXPECT_EQ(j["finished"][0],
            (json{{"id", "done0001"},
                  {"url", "https://lichess.org/done0001"},
                  {"color", "white"},
                  {"opponent", {{"name", "Beaten"}, {"title", ""}, {"rating", 1950}}},
                  {"result", "win"},
                  {"rated", true},
                  {"speed", "rapid"},
                  {"our_rating", 2005},
                  {"rating_diff", 7},
                  {"plies", 61},
                  {"ended_unix_ms", 1699999900000}}));
  EXPECT_EQ(j["rating_history"], (json{{{"at_unix_ms", 1699999000000}, {"rating", 2005}},
                                       {{"at_unix_ms", 1699999900000}, {"rating", 2012}}}));
}

TEST(StatusJson, UnknownValuesAreNullNotZero) {
  StatusSnapshot s;
  GameView g = test::sample_game();
  g.opponent.rating.reset();
  g.initial_ms.reset();
  g.increment_ms.reset();
  g.eval.reset();
  s.games = {g};
  const json j = status_json(s);
  EXPECT_TRUE(j["games"][0]["opponent"]["rating"].is_null());
  EXPECT_TRUE(j["games"][0]["clock"]["initial_ms"].is_null());
  EXPECT_TRUE(j["games"][0]["eval"].is_null());
  EXPECT_TRUE(j["evaluator"]["batch_fill"].is_null());
  EXPECT_TRUE(j["matchmaking"]["next_seek_unix_ms"].is_null());
  EXPECT_EQ(j["games"][0]["eval_history"].size(), 3u);
}

TEST(StatusJson, HealthyNeedsTheStreamAndTheEvaluator) {
  StatusSnapshot s = full_snapshot();
  EXPECT_TRUE(status_healthy(s));
  s.evaluator.healthy = false;
  EXPECT_FALSE(status_healthy(s));
  EXPECT_EQ(status_json(s)["healthy"], false);
  s = full_snapshot();
  s.connection.event_stream_up = false;
  EXPECT_FALSE(status_healthy(s));
}

TEST(StatusJson, AMateIsShownAsAMate) {
  StatusSnapshot s;
  GameView g = test::sample_game();
  g.eval = EvalPoint{9, 10000, 3};
  s.games = {g};
  EXPECT_EQ(status_json(s)["games"][0]["eval"]["mate"], 3);
}

}  // namespace
}  // namespace zh::bot
