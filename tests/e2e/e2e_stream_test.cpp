// Broken connections on both streams (issue 6 §2.3, §2.4, §2.5, §2.9): the game goes on, no
// move is sent twice, our clock holds.
#include "tests/e2e/e2e_fixture.h"

namespace zh::e2e {
namespace {

using E2eStreams = E2eTest;

// A game against Fairy-Stockfish with a clock long enough that only a bug can flag it.
Json quick_game(const std::string& user, const std::string& challenger_color = "random") {
  Json spec = challenge_spec(user, true, engine_opponent(0, 30), 60, 0);
  spec["color"] = challenger_color;
  return spec;
}

std::vector<Json> log_rows(Emulator& emu, const std::string& endpoint) {
  std::vector<Json> out;
  for (const auto& r : emu.get("/admin/log"))
    if (r.value("endpoint", "") == endpoint) out.push_back(r);
  return out;
}

TEST_F(E2eStreams, EventStreamDroppedMidGameReconnectsAndTheGameGoesOn) {
  start_emulator();
  // The first event stream carries the challenge and its gameStart, then drops at the next
  // event (the challenge below), which the bot therefore first sees in the reconnect's replay.
  emu_->add_faults({{"target", "event_stream"}, {"drop_after_lines", 2}, {"count", 1}});
  BotSettings s = settings();
  // The game must outlast both blips whatever happens on the board: a near-random bot (two
  // tree nodes per move, no mate search) against a slow random mover that resigns at ply 40.
  s.set("challenge", "max_concurrent_games", "1")
      .set("challenge", "queue_size", "0")  // a busy bot answers `later` at once
      .set("evaluator", "backend", "uniform")
      .set("search", "max_tree_nodes", "2")
      .without_mate_search();
  start_connected_bot(s);
  Json long_game =
      challenge_spec("Kim", true, {{"type", "random"}, {"delay_ms", 250}, {"resign_at_ply", 40}});
  const std::string id = accepted_game(emu_->challenge(long_game));
  ASSERT_FALSE(id.empty());
  emu_->wait_plies(id, 6, 20s);
  const std::string second = emu_->challenge(quick_game("Lou"));
  EXPECT_TRUE(eventually([&] { return emu_->stats().value("event_stream_opens", 0) >= 2; }, 10s))
      << "the event stream was not reopened";
  // The replayed challenge is answered (the one slot is busy), the replayed gameStart does not
  // start a second session for the running game.
  EXPECT_TRUE(eventually(
      [&] { return emu_->challenge_state(second).value("declineReasonKey", "") == "later"; }, 10s))
      << emu_->challenge_state(second).dump();
  // A second blip takes both streams down at once.
  emu_->wait_plies(id, 12, 20s);
  emu_->post("/admin/sever-streams");
  EXPECT_TRUE(eventually([&] { return emu_->stats().value("event_stream_opens", 0) >= 3; }, 10s));
  const Json g = expect_clean_finish(id, 120s);
  EXPECT_GE(g.value("stream_opens", 0), 2) << "the game stream was not reopened after the blip";
  EXPECT_EQ(emu_->stats().value("games", 0), 1);
}

TEST_F(E2eStreams, GameStreamDroppedRightAfterTheOpponentsMoveIsReopenedInTime) {
  start_emulator();
  // The bot plays White. Each of the first three game-stream connections sends gameFull and the
  // state after the bot's move, then drops instead of sending the opponent's reply: the bot
  // learns of that move only from the gameFull of the connection it reopens.
  emu_->add_faults({{"target", "game_stream"}, {"drop_after_lines", 2}, {"count", 3}});
  // An idle timeout of 5 minutes: a bot that noticed a dropped stream only by its silence
  // would need 15 minutes for the three drops, and the game would not finish in time.
  start_connected_bot(settings().set("lichess", "stream_idle_timeout_s", "300"));
  const std::string id = accepted_game(emu_->challenge(quick_game("Max", "black")));
  ASSERT_FALSE(id.empty());
  const Json g = expect_clean_finish(id, 120s);
  EXPECT_GE(g.value("stream_opens", 0), 4);
  EXPECT_GE(bot_move_times_ms(g).size(), 4u);
}

TEST_F(E2eStreams, RateLimitsOnTheEventStreamAndOnAMoveArePausedForThenPlayed) {
  start_emulator();
  // The first event stream is refused with 429 (ratelimit.seconds = 3); a later move is too
  // (2 s). The bot must wait as told, not hammer, and must not send the move twice.
  emu_->add_faults(
      {{"rules",
        {{{"target", "event_stream"}, {"status", 429}, {"ratelimit_seconds", 3}, {"count", 1}},
         {{"target", "move"}, {"status", 429}, {"ratelimit_seconds", 2}, {"skip", 3}, {"count", 1}},
         {{"target", "move"}, {"status", 502}, {"skip", 8}, {"count", 1}}}}});
  BotProcess& bot = start_bot(settings());
  // The request log's row comes after the handler's count: wait for the rows themselves.
  ASSERT_TRUE(eventually([&] { return log_rows(*emu_, "event_stream").size() >= 2; }, 60s))
      << "the event stream was never reopened after the 429";
  const auto events = log_rows(*emu_, "event_stream");
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events[0].value("status", 0), 429);
  EXPECT_GE(events[1].value("at_ms", 0) - events[0].value("at_ms", 0), 2900)
      << "the event stream was reopened before ratelimit.seconds";
  const std::string id = accepted_game(emu_->challenge(quick_game("Ned")));
  ASSERT_FALSE(id.empty());
  expect_clean_finish(id, 120s);
  const auto moves = log_rows(*emu_, "move");
  std::size_t limited = moves.size();
  for (std::size_t i = 0; i < moves.size(); ++i)
    if (moves[i].value("status", 0) == 429) limited = i;
  ASSERT_LT(limited + 1, moves.size()) << "no move was rate limited, or none came after";
  EXPECT_GE(moves[limited + 1].value("at_ms", 0) - moves[limited].value("at_ms", 0), 1900)
      << "the move was re-sent before ratelimit.seconds";
  EXPECT_TRUE(bot.process().running());
}

TEST_F(E2eStreams, GarbageTruncatedUnknownAndDuplicatedLinesAreSkipped) {
  start_emulator();
  emu_->add_faults({{"rules",
                     {{{"target", "stream"},
                       {"garbage_probability", 0.2},
                       {"unknown_probability", 0.2},
                       {"duplicate_probability", 0.2},
                       {"count", 0}},
                      {{"target", "event_stream"}, {"truncate_after_lines", 1}, {"count", 1}},
                      {{"target", "game_stream"}, {"truncate_after_lines", 3}, {"count", 2}}}}});
  BotProcess& bot = start_connected_bot(settings());
  const std::string id = accepted_game(emu_->challenge(quick_game("Oda")));
  ASSERT_FALSE(id.empty());
  const Json g = expect_clean_finish(id, 120s);
  EXPECT_GE(g.value("stream_opens", 0), 3) << "the truncated game streams were not reopened";
  const Json rules = emu_->get("/admin/faults");
  for (const auto& r : rules)
    EXPECT_GT(r.value("hits", 0), 0) << "a fault never fired: " << r.dump();
  EXPECT_TRUE(bot.process().running());
}

}  // namespace
}  // namespace zh::e2e
