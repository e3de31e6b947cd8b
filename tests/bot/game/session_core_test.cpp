#include "bot/game/session_core.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <mutex>

#include "bot/config/load_config.h"
#include "tests/bot/game/fake_engine.h"
#include "tests/bot/support/loopback_client.h"
#include "tests/bot/support/test_server.h"
#include "tests/support/fake_clock.h"

namespace zh::bot {
namespace {

std::string full_line(const std::string& moves, bool white_is_bot = false, bool we_are_white = true,
                      const std::string& extra_state = "") {
  const std::string us = R"({"id":"zhbot","name":"ZhBot","title":"BOT","rating":2000})";
  const std::string them = std::string(R"({"id":"alice","name":"Alice","title":)") +
                           (white_is_bot ? "\"BOT\"" : "null") + R"(,"rating":1800})";
  return std::string(R"({"type":"gameFull","id":"abcdefgh","variant":{"key":"crazyhouse"},)") +
         R"("speed":"blitz","rated":true,"createdAt":1763776800000,"white":)" +
         (we_are_white ? us : them) + R"(,"black":)" + (we_are_white ? them : us) +
         R"(,"initialFen":"startpos","clock":{"initial":180000,"increment":2000},)" +
         R"("state":{"type":"gameState","moves":")" + moves +
         R"(","wtime":170000,"btime":160000,"winc":2000,"binc":2000,"status":"started")" +
         extra_state + "}}";
}

std::string state_line(const std::string& moves, const std::string& extra = "",
                       const std::string& status = "started") {
  return R"({"type":"gameState","moves":")" + moves +
         R"(","wtime":150000,"btime":140000,"winc":2000,"binc":2000,"status":")" + status + "\"" +
         extra + "}";
}

// A loopback lichess that records every POST and answers from a per-endpoint script.
class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = load_config(std::nullopt).bot;
    config_.pgn_dir = "";
    server_.server().Post(R"(/api/bot/game/abcdefgh/(.+))", [this](const httplib::Request& req,
                                                                   httplib::Response& res) {
      std::lock_guard lock(mutex_);
      std::string what = req.matches[1];
      if (req.has_param("offeringDraw"))
        what += "?offeringDraw=" + req.get_param_value("offeringDraw");
      posts_.push_back(what);
      if (what.rfind("chat", 0) == 0) chats_.push_back(req.get_param_value("text"));
      int status = 200;
      if (what.rfind("move/", 0) == 0 && !move_statuses_.empty()) {
        status = move_statuses_.front();
        move_statuses_.erase(move_statuses_.begin());
      }
      res.status = status;
      res.set_content(status == 200 ? R"({"ok":true})" : R"({"error":"no"})", "application/json");
    });
    server_.start();
    lichess_ = std::make_unique<test::LoopbackClient>(server_, clock_);
    client_ = lichess_->client.get();
  }

  SessionCore& core() {
    if (!core_) {
      SessionCore::Env env;
      env.client = client_;
      env.clock = &clock_;
      env.metrics = &metrics_;
      env.ponder = ponder_.get();
      env.my_id = "zhbot";
      env.my_name = "ZhBot";
      env.engine_name = "zhbot test";
      core_ = std::make_unique<SessionCore>(
          "abcdefgh", config_, env, engine_,
          [this](const ThinkResult& r, std::uint64_t id) { core_->on_think_done(r, id); },
          spdlog::default_logger()->clone("game:abcdefgh"));
    }
    return *core_;
  }

  void feed(const std::string& line) {
    std::string error;
    auto event = parse_game_event(line, error);
    ASSERT_TRUE(event) << error << ": " << line;
    core().on_event(*event, clock_.now());
  }

  std::vector<std::string> posts() {
    std::lock_guard lock(mutex_);
    return posts_;
  }
  int count(const std::string& what) {
    int n = 0;
    for (const auto& p : posts()) n += p == what;
    return n;
  }

  BotConfig config_;
  test::TestServer server_;
  zh::test::FakeClock clock_;
  std::unique_ptr<test::LoopbackClient> lichess_;
  LichessClient* client_ = nullptr;
  Metrics metrics_;
  std::unique_ptr<PonderCoordinator> ponder_;
  test::FakeEngine engine_;
  std::unique_ptr<SessionCore> core_;
  std::mutex mutex_;
  std::vector<std::string> posts_, chats_;
  std::vector<int> move_statuses_;
};

TEST_F(SessionTest, ThinksOnOurTurnAndSendsEachMoveOnce) {
  feed(full_line(""));
  ASSERT_EQ(engine_.thinks.size(), 1u);
  EXPECT_TRUE(engine_.thinks[0].moves.empty());
  EXPECT_EQ(engine_.thinks[0].limits.wtime, 170000);
  EXPECT_EQ(engine_.thinks[0].limits.binc, 2000);
  EXPECT_TRUE(engine_.thinks[0].limits.human_opponent);
  EXPECT_EQ(engine_.thinks[0].limits.min_think_ms, 1000);
  engine_.answer("e2e4");
  EXPECT_EQ(count("move/e2e4"), 1);
  // The same position again (a reconnect's gameFull, a draw-offer state): no second move.
  feed(full_line(""));
  feed(state_line(""));
  EXPECT_EQ(engine_.thinks.size(), 1u);
  EXPECT_EQ(count("move/e2e4"), 1);
  // The opponent's reply: think again, from the full move list.
  feed(state_line("e2e4 e7e5"));
  ASSERT_EQ(engine_.thinks.size(), 2u);
  EXPECT_EQ(engine_.thinks[1].moves, (std::vector<std::string>{"e2e4", "e7e5"}));
  engine_.answer("g1f3");
  EXPECT_EQ(count("move/g1f3"), 1);
  EXPECT_EQ(core().moves_sent(), 2);
  EXPECT_NE(metrics_.render().find("zhbot_moves_total 2"), std::string::npos);
}

TEST_F(SessionTest, WaitsWhenItIsTheOpponentsTurn) {
  feed(full_line("", false, /*we_are_white=*/false));
  EXPECT_TRUE(engine_.thinks.empty());
  feed(state_line("e2e4"));
  EXPECT_EQ(engine_.thinks.size(), 1u);
}

TEST_F(SessionTest, BotOpponentsGetNoArtificialDelay) {
  feed(full_line("", /*white_is_bot=*/true, /*we_are_white=*/false));
  feed(state_line("e2e4"));
  ASSERT_EQ(engine_.thinks.size(), 1u);
  EXPECT_FALSE(engine_.thinks[0].limits.human_opponent);
  EXPECT_EQ(engine_.thinks[0].limits.min_think_ms, 0);
}

TEST_F(SessionTest, ServerMovesOurRulesRejectAreSkippedUntilTheNextState) {
  feed(full_line("", false, false));
  feed(state_line("e2e4 e2e4"));  // nonsense from the server: logged, no crash, no think
  EXPECT_TRUE(engine_.thinks.empty());
  feed(state_line("e2e4 e7e5 g1f3"));
  EXPECT_EQ(engine_.thinks.size(), 1u);
}

TEST_F(SessionTest, KingToRookCastlingAndDropsFromTheServer) {
  feed(full_line("", false, false));
  feed(state_line("e2e4 d7d5 e4d5 d8d5 g1f3 g8f6 f1e2 c8g4 e1h1 P@h3 g2h3"));
  ASSERT_EQ(engine_.thinks.size(), 1u);
  EXPECT_EQ(engine_.thinks[0].moves.size(), 11u);
}

TEST_F(SessionTest, NetworkErrorOnMoveIsRetriedOnlyIfTheStreamStillShowsOurTurn) {
  move_statuses_ = {502, 200};
  feed(full_line(""));
  engine_.answer("e2e4");
  EXPECT_EQ(count("move/e2e4"), 1);
  core().tick();  // too early
  EXPECT_EQ(count("move/e2e4"), 1);
  clock_.advance(Millis(500));
  core().tick();  // the stream showed nothing new: send again
  EXPECT_EQ(count("move/e2e4"), 2);
  EXPECT_EQ(core().moves_sent(), 1);
}

TEST_F(SessionTest, AMoveIsNeverGivenUpWhileTheGameRuns) {
  move_statuses_ = {502, 502, 502, 502, 502, 200};  // a server in trouble for a while
  feed(full_line(""));
  engine_.answer("e2e4");
  for (int i = 0; i < 10 && core().moves_sent() == 0; ++i) {
    clock_.advance(Millis(1600));
    core().tick();
  }
  EXPECT_EQ(core().moves_sent(), 1);
  EXPECT_EQ(count("move/e2e4"), 6);
  EXPECT_EQ(engine_.thinks.size(), 1u);
}

// The event stream's gameFinish for a game Black won, whose last move was `last_move`.
GameInfo finish_event(const std::string& status, const std::string& last_move) {
  GameInfo info;
  info.game_id = "abcdefgh";
  info.status = status;
  info.winner = "black";
  info.last_move = last_move;
  return info;
}

TEST_F(SessionTest, RateLimitedMoveIsSentAgainOnceThePauseIsOver) {
  move_statuses_ = {429, 200};  // a 429 without a ratelimit body: lichess's one minute
  feed(full_line(""));
  engine_.answer("e2e4");
  EXPECT_EQ(count("move/e2e4"), 1);
  clock_.advance(Millis(30000));
  core().tick();  // still paused: hammering would only extend the ban
  EXPECT_EQ(count("move/e2e4"), 1);
  clock_.advance(Millis(30001));
  core().tick();
  EXPECT_EQ(count("move/e2e4"), 2);
  EXPECT_EQ(core().moves_sent(), 1);
  EXPECT_EQ(engine_.thinks.size(), 1u);  // the same move, not a new search
}

TEST_F(SessionTest, GameFinishAheadOfTheGameStreamWaitsForTheFinalMove) {
  feed(full_line(""));
  engine_.answer("e2e4");
  feed(state_line("e2e4 e7e5"));
  engine_.answer("d1h5");
  const GameInfo info = finish_event("resign", "g7g6");  // not on our board yet
  core().on_game_finished(info);
  EXPECT_FALSE(core().finished());
  feed(state_line("e2e4 e7e5 d1h5 g7g6", R"(,"winner":"black")", "resign"));
  ASSERT_TRUE(core().finished());
  EXPECT_EQ(core().result(), "loss");
}

TEST_F(SessionTest, GameFinishWithoutTheGameStreamEndsTheGameAfterAMoment) {
  feed(full_line(""));
  engine_.answer("e2e4");
  const GameInfo info = finish_event("mate", "d8h4");  // the game stream never delivers it
  core().on_game_finished(info);
  EXPECT_FALSE(core().finished());
  clock_.advance(Millis(2100));
  core().tick();
  ASSERT_TRUE(core().finished());
  EXPECT_EQ(core().result(), "loss");
}

TEST_F(SessionTest, GameFinishWhoseLastMoveWeHaveEndsAtOnce) {
  feed(full_line(""));
  engine_.answer("e2e4");
  feed(state_line("e2e4 e7e5"));
  const GameInfo info = finish_event("outoftime", "e7e5");
  core().on_game_finished(info);
  ASSERT_TRUE(core().finished());
  EXPECT_EQ(core().result(), "loss");
}

TEST_F(SessionTest, MoveThatLandedDespiteAnErrorIsNotResent) {
  move_statuses_ = {504};
  feed(full_line(""));
  engine_.answer("e2e4");
  feed(state_line("e2e4"));  // the server did apply it
  clock_.advance(Millis(1000));
  core().tick();
  EXPECT_EQ(count("move/e2e4"), 1);
}

TEST_F(SessionTest, RefusedMoveIsNotResentBlindly) {
  move_statuses_ = {400, 400, 400};
  feed(full_line(""));
  engine_.answer("e2e4");
  EXPECT_EQ(count("move/e2e4"), 1);
  EXPECT_EQ(engine_.thinks.size(), 1u);
  clock_.advance(Millis(600));
  core().tick();  // re-search after the refusal
  ASSERT_EQ(engine_.thinks.size(), 2u);
  engine_.answer("d2d4");
  EXPECT_EQ(count("move/d2d4"), 1);
  clock_.advance(Millis(600));
  core().tick();
  feed(state_line(""));
  EXPECT_EQ(engine_.thinks.size(), 2u);  // bounded: no endless loop of refused moves
}

TEST_F(SessionTest, AnIllegalMoveFromTheEngineIsNeverSentAndTheEngineStartsAfresh) {
  feed(full_line(""));
  ASSERT_EQ(engine_.thinks.size(), 1u);
  const int games = engine_.new_games;
  Game later;
  later.play_uci("e2e4");
  ThinkResult stale;  // a move of another position, as a stale search tree would give
  stale.move = parse_uci(later.position(), "e7e5");
  engine_.thinks.back().done(stale);
  EXPECT_EQ(count("move/e7e5"), 0);
  EXPECT_EQ(engine_.new_games, games + 1);
  clock_.advance(Millis(600));
  core().tick();
  ASSERT_EQ(engine_.thinks.size(), 2u);
  engine_.answer("d2d4");
  EXPECT_EQ(count("move/d2d4"), 1);
}

TEST_F(SessionTest, StaleResultsAreDiscarded) {
  feed(full_line("e2e4 e7e5"));
  ASSERT_EQ(engine_.thinks.size(), 1u);
  auto old_done = engine_.thinks[0].done;
  feed(state_line("e2e4 e7e5 g1f3 b8c6"));  // e.g. the moves changed under us
  ASSERT_EQ(engine_.thinks.size(), 2u);
  ThinkResult stale;
  stale.move = parse_uci(engine_.thinks[0].game.position(), "d2d4");
  old_done(stale);
  EXPECT_EQ(count("move/d2d4"), 0);
  engine_.answer("f1c4");
  EXPECT_EQ(count("move/f1c4"), 1);
}

TEST_F(SessionTest, DrawOffersAreDeclinedByDefaultOncePerOffer) {
  feed(full_line("", false, false));
  feed(state_line("e2e4", R"(,"wdraw":true)"));
  feed(state_line("e2e4", R"(,"wdraw":true)"));
  EXPECT_EQ(count("draw/no"), 1);
  EXPECT_EQ(count("draw/yes"), 0);
}

TEST_F(SessionTest, LevelDrawOffersAreAcceptedWhenEnabled) {
  config_.accept_draws = true;
  config_.draw_min_moves = 0;
  feed(full_line(""));
  engine_.answer("e2e4", 0.01f, 1);
  feed(state_line("e2e4 e7e5", R"(,"bdraw":true)"));
  EXPECT_EQ(count("draw/yes"), 1);
}

TEST_F(SessionTest, OffersADrawWithTheMoveOnceABotGameHasStayedLevel) {
  config_.offer_draws = true;
  config_.offer_draw_moves = 2;
  config_.offer_draw_min_moves = 1;
  feed(full_line("", /*white_is_bot=*/true));
  engine_.answer("e2e4", 0.0f, 0);
  feed(state_line("e2e4 e7e5"));
  engine_.answer("g1f3", 0.01f, 1);
  EXPECT_EQ(count("move/e2e4"), 1);
  EXPECT_EQ(count("move/g1f3?offeringDraw=true"), 1);
}

TEST_F(SessionTest, NoDrawOfferToAHumanUnlessTheOperatorAllowsIt) {
  config_.offer_draws = true;
  config_.offer_draw_moves = 1;
  config_.offer_draw_min_moves = 1;
  feed(full_line(""));
  engine_.answer("e2e4", 0.0f, 0);
  EXPECT_EQ(count("move/e2e4"), 1);
  config_.offer_draws_to_humans = true;
  feed(state_line("e2e4 e7e5"));
  engine_.answer("g1f3", 0.0f, 0);
  EXPECT_EQ(count("move/g1f3?offeringDraw=true"), 1);
}

TEST_F(SessionTest, TakebacksDeclinedByDefaultOrGrantedUpToTheLimit) {
  config_.takebacks_accepted = 1;
  feed(full_line("", false, false));
  feed(state_line("e2e4", R"(,"wtakeback":true)"));
  feed(state_line("e2e4", R"(,"wtakeback":true)"));
  EXPECT_EQ(count("takeback/yes"), 1);
  feed(state_line(""));  // the takeback happened
  feed(state_line("d2d4", R"(,"wtakeback":true)"));
  EXPECT_EQ(count("takeback/no"), 1);
}

TEST_F(SessionTest, AbortsWhenTheOpponentNeverMoves) {
  feed(full_line("", false, false));
  clock_.advance(Millis(19000));
  core().tick();
  EXPECT_EQ(count("abort"), 0);
  clock_.advance(Millis(1000));
  core().tick();
  core().tick();
  EXPECT_EQ(count("abort"), 1);
}

TEST_F(SessionTest, WaitGivesTheOpponentAMinuteBeforeTheAbortUpToThreeTimes) {
  feed(full_line("", false, false));  // we are Black: Alice's first move is awaited
  const auto wait = [&] {
    const auto before = chats_.size();
    feed(R"({"type":"chatLine","username":"Alice","text":"!wait","room":"player"})");
    return chats_.size() > before ? chats_.back() : std::string("(no answer)");
  };
  clock_.advance(Millis(19000));
  EXPECT_EQ(wait(), "Waiting 60 seconds for your first move.");
  clock_.advance(Millis(59000));  // 78 s: past abort_time_s (20), not past the wait
  core().tick();
  EXPECT_EQ(count("abort"), 0);
  EXPECT_EQ(wait(), "Waiting 60 seconds for your first move.");  // now 138 s
  clock_.advance(Millis(10000));
  EXPECT_EQ(wait(), "Waiting 60 seconds for your first move.");  // 148 s
  clock_.advance(Millis(10000));
  EXPECT_EQ(wait(), "(no answer)");  // a fourth is not granted
  clock_.advance(Millis(49000));     // 147 s after the start
  core().tick();
  EXPECT_EQ(count("abort"), 0);
  clock_.advance(Millis(1000));
  core().tick();
  EXPECT_EQ(count("abort"), 1);
}

TEST_F(SessionTest, NoWaitOnceTheGameIsUnderWay) {
  feed(full_line("", false, false));
  feed(state_line("e2e4"));
  engine_.answer("e7e5");
  feed(state_line("e2e4 e7e5"));
  const auto before = chats_.size();
  clock_.advance(Millis(5000));
  feed(R"({"type":"chatLine","username":"Alice","text":"!wait","room":"player"})");
  EXPECT_EQ(chats_.size(), before);
}

TEST_F(SessionTest, NoAbortOnceTheGameIsUnderWay) {
  feed(full_line("", false, false));
  feed(state_line("e2e4"));
  engine_.answer("e7e5");
  feed(state_line("e2e4 e7e5"));
  clock_.advance(Millis(60000));
  core().tick();
  EXPECT_EQ(count("abort"), 0);
}

TEST_F(SessionTest, ClaimsVictoryAfterTheCountdownUnlessTheOpponentReturns) {
  feed(full_line("e2e4 e7e5", false, false));
  feed(R"({"type":"opponentGone","gone":true,"claimWinInSeconds":5})");
  clock_.advance(Millis(5000));
  core().tick();
  EXPECT_EQ(count("claim-victory"), 0);
  clock_.advance(Millis(300));
  core().tick();
  EXPECT_EQ(count("claim-victory"), 1);

  feed(R"({"type":"opponentGone","gone":true,"claimWinInSeconds":5})");
  feed(R"({"type":"opponentGone","gone":false})");
  clock_.advance(Millis(10000));
  core().tick();
  EXPECT_EQ(count("claim-victory"), 1);
}

TEST_F(SessionTest, ResignsAfterConsecutiveLostEvaluationsWhenEnabled) {
  config_.resign = true;
  config_.resign_moves = 2;
  feed(full_line("e2e4 e7e5"));
  engine_.answer("g1f3", -0.99f, -900);
  EXPECT_EQ(count("resign"), 0);
  feed(state_line("e2e4 e7e5 g1f3 b8c6"));
  engine_.answer("f1c4", -0.99f, -900);
  EXPECT_EQ(count("resign"), 1);
  EXPECT_EQ(count("move/f1c4"), 0);
}

TEST_F(SessionTest, GreetsAnswersSpectatorsAndSaysGoodbye) {
  feed(full_line(""));
  ASSERT_GE(chats_.size(), 2u);
  EXPECT_NE(chats_[0].find("Alice"), std::string::npos);
  feed(R"({"type":"chatLine","username":"bob","text":"!eval","room":"player"})");
  const auto before = chats_.size();
  EXPECT_EQ(chats_.size(), before);  // !eval is for spectators only
  engine_.answer("e2e4", 0.2f, 35);
  clock_.advance(Millis(5000));
  feed(R"({"type":"chatLine","username":"bob","text":"!eval","room":"spectator"})");
  ASSERT_EQ(chats_.size(), before + 1);
  EXPECT_NE(chats_.back().find("+0.35"), std::string::npos) << chats_.back();
  feed(R"({"type":"chatLine","username":"bob","text":"!name","room":"spectator"})");
  EXPECT_EQ(chats_.size(), before + 1);  // rate-limited
  feed(state_line("e2e4 f7f6", "", "resign"));
  EXPECT_TRUE(core().finished());
}

TEST_F(SessionTest, FinishedGameWritesAReadablePgnAndCountsTheResult) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("zhbot_session_pgn_" + std::to_string(::getpid()));
  config_.pgn_dir = dir.string();
  feed(full_line(""));
  engine_.answer("e2e4", 0.2f, 35);
  feed(state_line("e2e4 e7e5"));
  engine_.answer("d1h5", 0.3f, 50);
  feed(state_line("e2e4 e7e5 d1h5 b8c6"));
  engine_.answer("f1c4", 0.4f, 60);
  feed(state_line("e2e4 e7e5 d1h5 b8c6 f1c4 g8f6"));
  engine_.answer("h5f7", 1.0f, 10000);
  feed(state_line("e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7", R"(,"winner":"white")", "mate"));
  ASSERT_TRUE(core().finished());
  EXPECT_EQ(core().result(), "win");
  ASSERT_TRUE(core().pgn_path());
  std::ifstream in(*core().pgn_path());
  const std::string pgn((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(pgn.find("[Result \"1-0\"]"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("4. Qxf7# { [%eval 100.00]"), std::string::npos) << pgn;
  EXPECT_NE(metrics_.render().find("zhbot_games_total{result=\"win\"} 1"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_F(SessionTest, PondersAfterOurMoveWhenAllowed) {
  ponder_ = std::make_unique<PonderCoordinator>(PonderMode::kOn, true);
  ponder_->set_games_running(1);
  feed(full_line(""));
  engine_.answer("e2e4");
  ASSERT_EQ(engine_.ponders.size(), 1u);
  EXPECT_EQ(engine_.ponders[0], std::vector<std::string>{"e2e4"});
  EXPECT_TRUE(engine_.pondering());
  ponder_->set_games_running(2);  // a second game starts: pondering stops at once
  EXPECT_FALSE(engine_.pondering());
}

TEST_F(SessionTest, NoPonderingAgainstBotsInHumansMode) {
  ponder_ = std::make_unique<PonderCoordinator>(PonderMode::kHumans, true);
  ponder_->set_games_running(1);
  feed(full_line("", /*white_is_bot=*/true, false));
  feed(state_line("e2e4"));
  engine_.answer("e7e5");
  EXPECT_TRUE(engine_.ponders.empty());
}

TEST(PonderCoordinator, AGameThatMustMoveStopsOthers) {
  PonderCoordinator c(PonderMode::kOn, false);
  c.set_games_running(2);
  EXPECT_TRUE(c.may_ponder(true));
  int stopped_a = 0, stopped_b = 0;
  c.pondering("a", [&] { ++stopped_a; });
  c.pondering("b", [&] { ++stopped_b; });
  c.must_move("a");
  EXPECT_EQ(stopped_a, 0);
  EXPECT_EQ(stopped_b, 1);
  PonderCoordinator off(PonderMode::kOff, false);
  EXPECT_FALSE(off.may_ponder(false));
  PonderCoordinator bots(PonderMode::kBots, true);
  bots.set_games_running(1);
  EXPECT_TRUE(bots.may_ponder(true));
  EXPECT_FALSE(bots.may_ponder(false));
}

}  // namespace
}  // namespace zh::bot
