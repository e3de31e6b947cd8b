// Game rules over HTTP: castling forms, mate, fivefold, clocks and flags, abort/resign,
// draw and takeback offers, the opponent leaving, and a game against Fairy-Stockfish.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>

#include "tests/emulator/emulator_harness.h"

namespace zh::emulator::test {
namespace {

Json script(std::vector<std::string> moves) {
  return {{"type", "script"}, {"moves", std::move(moves)}};
}

// A game where the bot is white and the opponent follows `opponent`.
struct BotWhiteGame {
  explicit BotWhiteGame(const Json& opponent, Json extra = Json::object(),
                        std::vector<std::string> args = {})
      : emu(std::move(args)), events(emu.port(), "/api/stream/event") {
    Json spec = {{"color", "black"}, {"opponent", opponent}};
    spec.update(extra);
    id = accept_new_challenge(emu, events, spec);
    stream = std::make_unique<NdjsonStream>(emu.port(), "/api/bot/game/stream/" + id);
  }
  int move(const std::string& uci) {
    auto r = emu.post("/api/bot/game/" + id + "/move/" + uci);
    return r ? r->status : 0;
  }
  // Waits until the game has `plies` plies.
  Json at_ply(int plies) {
    return emu.wait_game(id, [&](const Json& g) { return g["plies"] == plies; });
  }
  EmulatorProcess emu;
  NdjsonStream events;
  std::string id;
  std::unique_ptr<NdjsonStream> stream;
};

TEST(EmulatorGame, CastlingIsAcceptedInBothFormsAndSentKingToRook) {
  for (const std::string castle : {"e1g1", "e1h1"}) {
    BotWhiteGame g(script({"e7e5", "b8c6", "g8f6", "f8c5"}));
    for (const std::string m : {"e2e4", "g1f3", "f1c4"}) {
      const int ply = g.emu.admin_get("/admin/games/" + g.id)["plies"];
      ASSERT_EQ(g.move(m), 200) << m;
      g.at_ply(ply + 2);
    }
    ASSERT_EQ(g.move(castle), 200);
    auto state = g.stream->wait_for([](const Json& j) {
      return j.value("type", "") == "gameState" &&
             j.value("moves", "") == "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1";
    });
    EXPECT_TRUE(state) << "castling " << castle << " must be emitted as e1h1";
  }
}

TEST(EmulatorGame, MateEndsTheGameAndTheStreams) {
  BotWhiteGame g(script({"e7e5", "d8h4"}));
  ASSERT_EQ(g.move("f2f3"), 200);
  g.at_ply(2);
  ASSERT_EQ(g.move("g2g4"), 200);
  auto last = g.stream->wait_for([](const Json& j) { return j.value("status", "") == "mate"; });
  ASSERT_TRUE(last);
  EXPECT_EQ(last->at("winner"), "black");
  EXPECT_TRUE(g.stream->wait_ended());
  EXPECT_TRUE(g.stream->ended_cleanly());
  auto finish = g.events.wait_type("gameFinish");
  ASSERT_TRUE(finish);
  EXPECT_EQ(finish->at("game")["status"]["name"], "mate");
  EXPECT_EQ(finish->at("game")["winner"], "black");
  EXPECT_EQ(g.move("a2a3"), 400);
  const std::string pgn = g.emu.admin_text("/admin/games/" + g.id + "/pgn");
  EXPECT_NE(pgn.find("[Result \"0-1\"]"), std::string::npos);
  EXPECT_NE(pgn.find("[Variant \"Crazyhouse\"]"), std::string::npos);
  EXPECT_NE(pgn.find("1. f3 e5 2. g4 Qh4# 0-1"), std::string::npos) << pgn;
  // A finished game's stream is gameFull and the end.
  NdjsonStream late(g.emu.port(), "/api/bot/game/stream/" + g.id);
  auto full = late.wait_type("gameFull");
  ASSERT_TRUE(full);
  EXPECT_EQ(full->at("state")["status"], "mate");
  EXPECT_TRUE(late.wait_ended());
}

TEST(EmulatorGame, FivefoldRepetitionIsADraw) {
  std::vector<std::string> theirs;
  for (int i = 0; i < 4; ++i) {
    theirs.push_back("g8f6");
    theirs.push_back("f6g8");
  }
  BotWhiteGame g(script(theirs));
  int ply = 0;
  for (int i = 0; i < 8; ++i) {
    ASSERT_EQ(g.move(i % 2 == 0 ? "g1f3" : "f3g1"), 200) << i;
    ply += 2;
    g.at_ply(ply);
  }
  const Json end = g.emu.wait_game(g.id, [](const Json& j) { return j["status"] != "started"; });
  EXPECT_EQ(end["status"], "draw");
  EXPECT_TRUE(end["winner"].is_null());
  EXPECT_EQ(end["plies"], 16);
}

TEST(EmulatorGame, AbortOnlyBeforeBothSidesMovedThenResign) {
  BotWhiteGame g(script({"e7e5"}));
  ASSERT_EQ(g.move("e2e4"), 200);
  g.at_ply(2);
  auto abort = g.emu.post("/api/bot/game/" + g.id + "/abort");
  ASSERT_TRUE(abort);
  EXPECT_EQ(abort->status, 400);
  ASSERT_EQ(g.emu.post("/api/bot/game/" + g.id + "/resign")->status, 200);
  auto last = g.stream->wait_for([](const Json& j) { return j.value("status", "") == "resign"; });
  ASSERT_TRUE(last);
  EXPECT_EQ(last->at("winner"), "black");

  BotWhiteGame early(Json{{"type", "idle"}});
  ASSERT_EQ(early.emu.post("/api/bot/game/" + early.id + "/abort")->status, 200);
  auto aborted =
      early.stream->wait_for([](const Json& j) { return j.value("status", "") == "aborted"; });
  ASSERT_TRUE(aborted);
  EXPECT_FALSE(aborted->contains("winner"));
}

TEST(EmulatorGame, ClockRunsWithIncrementAndTheFlagFalls) {
  BotWhiteGame g(script({"e7e5", "d7d6"}), {{"initial_ms", 2000}, {"increment_s", 1}});
  const auto first_sent = std::chrono::steady_clock::now();
  ASSERT_EQ(g.move("e2e4"), 200);
  g.at_ply(2);
  std::this_thread::sleep_for(300ms);
  ASSERT_EQ(g.move("d2d4"), 200);  // the clock started after both first moves
  const Json after = g.at_ply(4);
  // Measured once the state is here: White's clock (running again since Black's reply) cannot
  // have run longer than that.
  const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::steady_clock::now() - first_sent)
                           .count();
  // 2000 + 1000 (increment) less the time our clock ran: at least the 300 ms we waited, at most
  // all the time from our first move to this state (1 ms for the truncation to milliseconds).
  EXPECT_LE(after["wtime"].get<int>(), 2000 + 1000 - 300);
  EXPECT_GE(after["wtime"].get<int>(), 2000 + 1000 - elapsed - 1);
  auto flag =
      g.stream->wait_for([](const Json& j) { return j.value("status", "") == "outoftime"; });
  ASSERT_TRUE(flag);
  EXPECT_EQ(flag->at("winner"), "black");
  EXPECT_EQ(flag->at("wtime"), 0);
  EXPECT_EQ(g.move("g1f3"), 400);
}

TEST(EmulatorGame, FirstMoveNotMadeInTimeIsNoStart) {
  // 3 s: long enough for the test's stream to open on a loaded machine before the game ends.
  BotWhiteGame g(Json{{"type", "idle"}}, Json::object(), {"--first-move-ms", "3000"});
  auto full = g.stream->wait_type("gameFull");
  ASSERT_TRUE(full);
  EXPECT_EQ(full->at("state")["expiration"]["millisToMove"], 3000);
  auto end = g.stream->wait_for([](const Json& j) { return j.value("status", "") == "noStart"; });
  ASSERT_TRUE(end);
  EXPECT_EQ(end->at("winner"), "black");
}

TEST(EmulatorGame, DrawOffersAreAnsweredByTheOpponentPolicy) {
  BotWhiteGame declines(script({"e7e5", "d7d6"}));
  ASSERT_EQ(declines.move("e2e4"), 200);
  declines.at_ply(2);
  ASSERT_EQ(declines.emu.post("/api/bot/game/" + declines.id + "/draw/yes")->status, 200);
  EXPECT_TRUE(declines.stream->wait_for([](const Json& j) { return j.value("wdraw", false); }));
  // Declined: a state without the offer follows, and the game goes on.
  EXPECT_TRUE(declines.stream->wait_for(
      [](const Json& j) { return j.value("type", "") == "gameState" && !j.contains("wdraw"); }));
  EXPECT_EQ(declines.emu.admin_get("/admin/games/" + declines.id)["status"], "started");

  Json accepting = script({"e7e5"});
  accepting["accept_draw"] = true;
  BotWhiteGame accepts(accepting);
  ASSERT_EQ(accepts.move("e2e4"), 200);
  accepts.at_ply(2);
  ASSERT_EQ(accepts.move("d2d4?offeringDraw=true"), 200);
  auto end =
      accepts.stream->wait_for([](const Json& j) { return j.value("status", "") == "draw"; });
  ASSERT_TRUE(end);
  EXPECT_FALSE(end->contains("winner"));
}

TEST(EmulatorGame, TakebackAcceptedRemovesTheMoves) {
  Json opp = script({"e7e5", "d7d6"});
  opp["accept_takeback"] = true;
  BotWhiteGame g(opp);
  ASSERT_EQ(g.move("e2e4"), 200);
  g.at_ply(2);
  ASSERT_EQ(g.emu.post("/api/bot/game/" + g.id + "/takeback/yes")->status, 200);
  const Json back = g.at_ply(0);
  EXPECT_EQ(back["moves"], "");
  EXPECT_TRUE(g.stream->wait_for([](const Json& j) {
    return j.value("type", "") == "gameState" && j.value("moves", "x") == "";
  }));
}

TEST(EmulatorGame, OpponentLeavesAndTheBotClaimsVictory) {
  // 3 s to claim: the early claim below reaches the emulator well within it on a loaded machine.
  BotWhiteGame g(Json{{"type", "leave"}, {"leave_at_ply", 1}, {"gone_claim_ms", 3000}});
  ASSERT_EQ(g.move("e2e4"), 200);
  auto gone = g.stream->wait_type("opponentGone");
  ASSERT_TRUE(gone);
  EXPECT_EQ(gone->at("gone"), true);
  EXPECT_GE(gone->at("claimWinInSeconds").get<int>(), 0);
  EXPECT_EQ(g.emu.post("/api/bot/game/" + g.id + "/claim-victory")->status, 400);  // too early
  auto claimable = g.stream->wait_for([](const Json& j) {
    return j.value("type", "") == "opponentGone" && j["claimWinInSeconds"] == 0;
  });
  ASSERT_TRUE(claimable);
  ASSERT_EQ(g.emu.post("/api/bot/game/" + g.id + "/claim-victory")->status, 200);
  const Json end = g.emu.admin_get("/admin/games/" + g.id);
  EXPECT_EQ(end["status"], "timeout");
  EXPECT_EQ(end["winner"], "white");
}

TEST(EmulatorGame, RandomMoverPlaysFairyStockfishToTheEnd) {
  if (access("/usr/games/fairy-stockfish", X_OK) != 0)
    GTEST_SKIP() << "fairy-stockfish is not installed (deploy/install-deps.sh installs it)";
  BotWhiteGame g(Json{{"type", "engine"}, {"skill", 0}, {"movetime_ms", 20}},
                 {{"limit_s", 60}, {"increment_s", 0}});
  unsigned seed = 7;
  std::string moves;
  for (int turn = 0; turn < 60; ++turn) {
    auto state = g.stream->wait_for(
        [&](const Json& j) {
          if (j.value("type", "") == "gameFull") return true;
          const std::string m = j.value("moves", "");
          const auto plies = m.empty() ? 0 : std::count(m.begin(), m.end(), ' ') + 1;
          return j.value("type", "") == "gameState" &&
                 (j.value("status", "") != "started" || plies % 2 == 0);
        },
        90s);  // past the opponent engine's start-up deadline (60 s) on a loaded machine
    ASSERT_TRUE(state) << "no state after turn " << turn;
    const Json& s = state->value("type", "") == "gameFull" ? state->at("state") : *state;
    if (s["status"] != "started") break;
    moves = s["moves"];
    const std::string mv = random_legal_move(moves, seed++);
    ASSERT_FALSE(mv.empty());
    ASSERT_EQ(g.move(mv), 200) << "after " << moves;
  }
  const Json view = g.emu.admin_get("/admin/games/" + g.id);
  if (view["status"] == "started") {
    ASSERT_EQ(g.emu.post("/api/bot/game/" + g.id + "/resign")->status, 200);
  }
  const Json end = g.emu.wait_game(g.id, [](const Json& j) { return j["status"] != "started"; });
  EXPECT_NE(end["status"], "started");
  EXPECT_EQ(end["rejected_moves"], 0);
  // A random mover can be mated by Fairy-Stockfish within a handful of moves, so the length
  // is not fixed; what must hold is that both sides played and a mate went to the side that
  // made the last move.
  const int plies = end["plies"].get<int>();
  EXPECT_GE(plies, 4);
  if (end["status"] == "mate") {
    EXPECT_EQ(end["winner"], plies % 2 == 1 ? "white" : "black");
  }
  const std::string pgn = g.emu.admin_text("/admin/games/" + g.id + "/pgn");
  EXPECT_NE(pgn.find("[White \"zhbot\"]"), std::string::npos);
  EXPECT_NE(pgn.find("1. "), std::string::npos);
}

}  // namespace
}  // namespace zh::emulator::test
