#include "bot/lichess/events.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "tests/support/test_paths.h"

namespace zh::bot {
namespace {

std::vector<std::string> read_lines(const std::string& name) {
  std::ifstream in(zh::test::data_dir() + "/lichess/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

TEST(Events, ParsesEverySpecExampleOfTheEventStream) {
  const auto lines = read_lines("event_stream.ndjson");
  ASSERT_EQ(lines.size(), 7u);
  std::string error;
  auto start = parse_event(lines[0], error);
  ASSERT_TRUE(start) << error;
  const auto& gs = std::get<GameStartEvent>(*start).game;
  EXPECT_EQ(gs.game_id, "0FgNPGRz");
  EXPECT_EQ(gs.full_id, "0FgNPGRzhDaW");
  EXPECT_EQ(gs.color, "white");
  EXPECT_EQ(gs.variant, "standard");
  EXPECT_EQ(gs.status, "started");
  EXPECT_TRUE(gs.is_my_turn);
  EXPECT_FALSE(gs.compat_bot);
  EXPECT_EQ(gs.opponent.username, "Aaron");
  EXPECT_EQ(gs.opponent.rating, 776);

  auto ai = parse_event(lines[1], error);
  ASSERT_TRUE(ai) << error;
  EXPECT_EQ(std::get<GameStartEvent>(*ai).game.opponent.ai_level.has_value(), true);

  auto finish = parse_event(lines[2], error);
  ASSERT_TRUE(finish) << error;
  EXPECT_EQ(std::get<GameFinishEvent>(*finish).game.status, "resign");
  EXPECT_EQ(std::get<GameFinishEvent>(*finish).game.winner, "black");
  ASSERT_TRUE(parse_event(lines[3], error)) << error;

  auto challenge = parse_event(lines[4], error);
  ASSERT_TRUE(challenge) << error;
  const auto& c = std::get<ChallengeEvent>(*challenge).challenge;
  EXPECT_EQ(c.id, "jWAgu6ga");
  EXPECT_EQ(c.challenger.id, "adriana");
  EXPECT_EQ(c.challenger.rating, 734);
  ASSERT_TRUE(c.dest_user);
  EXPECT_EQ(c.dest_user->id, "gabriela");
  EXPECT_EQ(c.time_control.type, "unlimited");
  EXPECT_EQ(c.speed, "correspondence");
  EXPECT_FALSE(c.rated);
  ASSERT_TRUE(c.compat_bot);
  EXPECT_FALSE(*c.compat_bot);

  auto canceled = parse_event(lines[5], error);
  ASSERT_TRUE(canceled) << error;
  EXPECT_EQ(std::get<ChallengeCanceledEvent>(*canceled).challenge.challenger.title, "WNM");
  auto declined = parse_event(lines[6], error);
  ASSERT_TRUE(declined) << error;
  EXPECT_EQ(std::get<ChallengeDeclinedEvent>(*declined).challenge.decline_reason_key, "generic");
}

TEST(Events, ParsesEverySpecExampleOfTheGameStream) {
  const auto lines = read_lines("game_stream.ndjson");
  ASSERT_EQ(lines.size(), 4u);
  std::string error;
  auto full = parse_game_event(lines[0], error);
  ASSERT_TRUE(full) << error;
  const auto& g = std::get<GameFull>(*full);
  EXPECT_EQ(g.id, "BEOucQJo");
  EXPECT_EQ(g.white.name, "Bobby");
  EXPECT_EQ(g.white.title, "");  // null in the JSON
  EXPECT_EQ(g.black.rating, 1021);
  EXPECT_EQ(g.initial_fen, "startpos");
  EXPECT_EQ(g.clock_initial_ms, 900000);
  EXPECT_EQ(g.clock_increment_ms, 0);
  EXPECT_EQ(g.state.moves, "d2d3");
  EXPECT_FALSE(g.state.finished());

  auto state = parse_game_event(lines[1], error);
  ASSERT_TRUE(state) << error;
  const auto& s = std::get<GameState>(*state);
  EXPECT_EQ(s.move_list().size(), 13u);
  EXPECT_EQ(s.move_list()[10], "e1g1");
  EXPECT_EQ(s.wtime_ms, 7598040);
  EXPECT_EQ(s.binc_ms, 10000);

  auto chat = parse_game_event(lines[2], error);
  ASSERT_TRUE(chat) << error;
  EXPECT_EQ(std::get<ChatLine>(*chat).text, "Good luck, have fun");
  EXPECT_EQ(std::get<ChatLine>(*chat).room, "player");

  auto gone = parse_game_event(lines[3], error);
  ASSERT_TRUE(gone) << error;
  EXPECT_TRUE(std::get<OpponentGone>(*gone).gone);
  EXPECT_EQ(std::get<OpponentGone>(*gone).claim_win_in_seconds, 8);
}

TEST(Events, GarbageUnknownAndWrongTypedLinesAreErrorsNotCrashes) {
  std::string error;
  EXPECT_FALSE(parse_event("{not json", error));
  EXPECT_EQ(error, "malformed JSON line");
  EXPECT_FALSE(parse_event("[1,2,3]", error));
  EXPECT_FALSE(parse_event("{\"type\":\"newFeature\",\"x\":1}", error));
  EXPECT_NE(error.find("newFeature"), std::string::npos);
  EXPECT_FALSE(parse_event("{\"type\":\"gameStart\",\"game\":{}}", error));
  EXPECT_FALSE(parse_event("{\"type\":\"challenge\",\"challenge\":{\"id\":5}}", error));
  EXPECT_FALSE(parse_game_event("{\"type\":\"gameState\",\"status\":\"started\"}", error));
  EXPECT_FALSE(parse_game_event("{\"type\":\"gameFull\",\"id\":\"abcdefgh\"}", error));
  EXPECT_FALSE(parse_game_event("", error));
  EXPECT_FALSE(parse_game_event("{\"type\":\"gameState\",\"moves\":5,\"status\":\"x\"}", error));
}

// Found by fuzz_events: a float beyond the int64 range made the conversion undefined. Numbers
// that do not fit their field now count as absent.
TEST(Events, NumbersThatDoNotFitTheirFieldCountAsAbsent) {
  std::string error;
  auto s = parse_game_event(
      R"({"type":"gameState","moves":"e2e4","wtime":8.36667e+115,"btime":-1e300,"winc":1500.7,)"
      R"("binc":18446744073709551615,"status":"started"})",
      error);
  ASSERT_TRUE(s) << error;
  const auto& state = std::get<GameState>(*s);
  EXPECT_EQ(state.wtime_ms, 0);
  EXPECT_EQ(state.btime_ms, 0);
  EXPECT_EQ(state.winc_ms, 1500);  // a float in range is truncated, as before
  EXPECT_EQ(state.binc_ms, 0);
  auto c = parse_event(
      R"({"type":"challenge","challenge":{"id":"abcdefgh","status":"created",)"
      R"("challenger":{"id":"a","name":"A","rating":1e12},"destUser":{"id":"z","name":"Z"},)"
      R"("variant":{"key":"crazyhouse"},"rated":false,"speed":"blitz",)"
      R"("timeControl":{"type":"clock","limit":4294967297,"increment":2},"color":"random"}})",
      error);
  ASSERT_TRUE(c) << error;
  const auto& challenge = std::get<ChallengeEvent>(*c).challenge;
  EXPECT_FALSE(challenge.challenger.rating.has_value());
  EXPECT_EQ(challenge.time_control.limit_s, 0);
  EXPECT_EQ(challenge.time_control.increment_s, 2);
}

TEST(Events, FinishedStatusesAndDrawOffers) {
  std::string error;
  auto s = parse_game_event(
      R"({"type":"gameState","moves":"e2e4 e7e5","wtime":1,"btime":2,"winc":0,"binc":0,"status":"mate","winner":"white","bdraw":true})",
      error);
  ASSERT_TRUE(s) << error;
  EXPECT_TRUE(std::get<GameState>(*s).finished());
  EXPECT_EQ(std::get<GameState>(*s).winner, "white");
  EXPECT_TRUE(std::get<GameState>(*s).bdraw);
  EXPECT_FALSE(std::get<GameState>(*s).wdraw);
}

TEST(Events, AccountAndPlaying) {
  std::string error;
  auto acc = parse_account(R"({"id":"zhbot","username":"ZhBot","title":"BOT"})", error);
  ASSERT_TRUE(acc) << error;
  EXPECT_TRUE(acc->is_bot());
  auto human = parse_account(R"({"id":"bob","username":"Bob"})", error);
  ASSERT_TRUE(human);
  EXPECT_FALSE(human->is_bot());
  EXPECT_FALSE(parse_account("{}", error));

  auto playing = parse_playing(
      R"({"nowPlaying":[{"gameId":"abcdefgh","fullId":"abcdefgh1234","color":"black","isMyTurn":true,"variant":{"key":"crazyhouse"},"opponent":{"id":"x","username":"X"}}]})",
      error);
  ASSERT_TRUE(playing) << error;
  ASSERT_EQ(playing->size(), 1u);
  EXPECT_EQ((*playing)[0].game_id, "abcdefgh");
  EXPECT_EQ((*playing)[0].variant, "crazyhouse");
  EXPECT_TRUE((*playing)[0].is_my_turn);
}

TEST(Events, IdsSafeForUrls) {
  EXPECT_TRUE(is_valid_id("0FgNPGRz"));
  EXPECT_FALSE(is_valid_id(""));
  EXPECT_FALSE(is_valid_id("../../x"));
  EXPECT_FALSE(is_valid_id("abc?d=1"));
  EXPECT_FALSE(is_valid_id(std::string(40, 'a')));
}

TEST(Events, ErrorText) {
  EXPECT_EQ(error_text(R"({"error":"Not your turn"})"), "Not your turn");
  EXPECT_EQ(error_text("<html>\ntoo many\n</html>"), "<html> too many </html>");
}

}  // namespace
}  // namespace zh::bot
