// The Engine facade: non-blocking go, stop/ponderhit semantics, tree reuse, races. Time limits
// run on a fake clock: a test moves it from one of the engine's deadlines to the next once the
// engine has settled, so "not yet" and "by then" are exact and the machine's load is no factor.
#include "engine/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/chess/notation.h"
#include "tests/engine/search/search_test_util.h"
#include "tests/support/fake_clock.h"

namespace zh {
namespace {

using namespace std::chrono_literals;

class Recorder : public SearchListener {
 public:
  void on_info(const SearchInfo& info) override {
    std::lock_guard lock(mutex_);
    infos.push_back(info);
    cv_.notify_all();
  }
  void on_bestmove(const BestMove& b) override {
    std::lock_guard lock(mutex_);
    bests.push_back(b);
    cv_.notify_all();
  }
  void on_message(const std::string& text) override {
    std::lock_guard lock(mutex_);
    messages.push_back(text);
  }
  bool wait_bestmove(std::chrono::milliseconds timeout, std::size_t count = 1) {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, timeout, [&] { return bests.size() >= count; });
  }
  std::size_t count() {
    std::lock_guard lock(mutex_);
    return bests.size();
  }
  std::vector<SearchInfo> info_copy() {
    std::lock_guard lock(mutex_);
    return infos;
  }
  std::vector<SearchInfo> infos;
  std::vector<BestMove> bests;
  std::vector<std::string> messages;

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
};

std::unique_ptr<Engine> make_engine(int threads = 2, Clock& clock = steady_clock()) {
  auto e = std::make_unique<Engine>(clock);
  e->set_option("backend", "uniform");
  e->set_option("threads", std::to_string(threads));
  e->set_option("seed", "3");
  return e;
}

// Moves `clock` from one deadline of the engine to the next, each time once the engine has
// settled (nothing but the clock can make it act), but not past `until` from now. Returns
// whether a bestmove came.
bool run_clock(test::FakeClock& clock, Recorder& rec, Millis until) {
  const TimePoint end = clock.now() + until;
  auto answered = [&] { return rec.count() > 0; };
  for (;;) {
    if (!clock.wait_parked(1, answered)) {
      ADD_FAILURE() << "the engine neither settled nor answered";
      return false;
    }
    if (answered()) return true;
    const TimePoint now = clock.now();
    if (now >= end) return false;
    const TimePoint next = std::min(end, clock.next_deadline().value_or(end));
    clock.advance(std::max(Millis(1), std::chrono::duration_cast<Millis>(next - now)));
  }
}

bool run_clock_until_bestmove(test::FakeClock& clock, Recorder& rec) {
  return run_clock(clock, rec, std::chrono::hours(1));
}

// True if the engine, settled after `until` of the clock, has sent no bestmove.
bool run_clock_without_bestmove(test::FakeClock& clock, Recorder& rec, Millis until) {
  return !run_clock(clock, rec, until) && rec.count() == 0;
}

TEST(SearchReport, AMoveNotSearchedYetReportsTheRootsOwnValue) {
  // A forced move is played at once, before any playout reaches it: its score is the root's
  // value, not a level 0 (which would break the bot's resign and draw-offer streaks).
  SearchSnapshot s;
  s.children.resize(1);
  s.best = 0;
  s.root_visits = 12;
  s.root_q = -0.6f;
  EXPECT_FLOAT_EQ(make_search_info(s, 10).q, -0.6f);
  EXPECT_LT(make_search_info(s, 10).cp, -100);
  s.children[0].visits = 3;
  s.children[0].q = 0.25f;
  EXPECT_FLOAT_EQ(make_search_info(s, 10).q, 0.25f);
}

TEST(Engine, GoNodesReturnsALegalMoveAndInfo) {
  auto engine = make_engine();
  engine->set_position("", {"e2e4", "e7e5"});
  auto rec = std::make_shared<Recorder>();
  SearchLimits limits;
  limits.nodes = 800;
  engine->go(limits, rec);
  engine->wait();
  ASSERT_EQ(rec->bests.size(), 1u);
  EXPECT_TRUE(engine->game().position().is_legal(rec->bests[0].move));
  ASSERT_FALSE(rec->infos.empty());
  EXPECT_EQ(rec->infos.back().nodes, 800);
  EXPECT_EQ(rec->infos.back().pv.front(), rec->bests[0].move);
  EXPECT_EQ(rec->bests[0].reason, StopReason::kPlayouts);
}

// Both structures check the kept node against the position the game reached.
TEST(Engine, AKeptSearchThatIsNotThePositionIsSearchedAfreshWithAWarning) {
  for (const std::string structure : {"tree", "graph"}) {
    SCOPED_TRACE(structure);
    auto lying = std::make_shared<test::MoveDroppingEvaluator>();
    Engine engine([lying](const Options&) {
      LoadedEvaluator loaded;
      loaded.evaluator = lying;
      return loaded;
    });
    engine.set_option("threads", "1");
    engine.set_option("graph", structure == "graph" ? "true" : "false");
    auto rec = std::make_shared<Recorder>();
    SearchLimits limits;
    limits.nodes = 2000;
    engine.go(limits, rec);
    engine.wait();
    ASSERT_EQ(rec->bests.size(), 1u);
    // Two plies on, along the search's own main line: a kept node whose block left a move out.
    const std::vector<Move> pv = rec->infos.back().pv;
    ASSERT_GE(pv.size(), 2u);
    Game g;
    g.play(pv[0]);
    g.play(pv[1]);
    lying->lying = false;
    engine.set_game(g);
    engine.go(limits, rec);
    engine.wait();
    ASSERT_EQ(rec->bests.size(), 2u);
    EXPECT_TRUE(g.position().is_legal(rec->bests[1].move));
    const std::string warning = "WARNING: the kept search " + structure + " does not match";
    const auto warned = std::count_if(rec->messages.begin(), rec->messages.end(),
                                      [&](auto& m) { return m.rfind(warning, 0) == 0; });
    EXPECT_EQ(warned, 1);
    for (const auto& m : rec->messages) EXPECT_EQ(m.rfind("reusing", 0), std::string::npos) << m;
  }
}

TEST(Engine, StopAlwaysYieldsOneBestmove) {
  test::FakeClock clock;
  auto engine = make_engine(2, clock);
  auto rec = std::make_shared<Recorder>();
  SearchLimits limits;
  limits.infinite = true;
  engine->go(limits, rec);
  // The engine waits for stop (it has settled and sent nothing), however long that takes.
  EXPECT_TRUE(run_clock_without_bestmove(clock, *rec, 5s));
  engine->stop();
  ASSERT_TRUE(rec->wait_bestmove(30s));
  engine->wait();
  EXPECT_EQ(rec->count(), 1u);
  EXPECT_FALSE(rec->bests[0].move.is_null());
  EXPECT_EQ(rec->bests[0].reason, StopReason::kRequested);
  engine->stop();  // stopping nothing is harmless
}

TEST(Engine, InfiniteWaitsForStopEvenWhenTheSearchEnded) {
  // One playout: the root's expansion ends the search before the engine first looks.
  test::FakeClock clock;
  auto engine = make_engine(1, clock);
  auto rec = std::make_shared<Recorder>();
  SearchLimits limits;
  limits.infinite = true;
  limits.nodes = 1;
  engine->go(limits, rec);
  EXPECT_TRUE(run_clock_without_bestmove(clock, *rec, 3s));  // UCI: no bestmove before stop
  engine->stop();
  engine->wait();
  ASSERT_EQ(rec->count(), 1u);
  EXPECT_EQ(rec->bests[0].reason, StopReason::kPlayouts);
}

TEST(Engine, InfiniteAnalysisReportsTheMate) {
  test::FakeClock clock;
  auto engine = make_engine(2, clock);
  engine->set_position("6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1", {});
  auto rec = std::make_shared<Recorder>();
  SearchLimits limits;
  limits.infinite = true;
  engine->go(limits, rec);
  // Once a second the info; the solver proves the mate within the first ones.
  bool mate = false;
  for (int second = 0; second < 30 && !mate; ++second) {
    ASSERT_TRUE(run_clock_without_bestmove(clock, *rec, 1s));
    for (const auto& info : rec->info_copy()) mate |= info.mate.has_value();
  }
  ASSERT_TRUE(mate);
  engine->stop();
  engine->wait();
  ASSERT_EQ(rec->count(), 1u);
  ASSERT_TRUE(rec->infos.back().mate.has_value());
  EXPECT_EQ(*rec->infos.back().mate, 1);
  Position after = engine->game().position();
  after.do_move(rec->bests[0].move);
  EXPECT_TRUE(after.is_checkmate()) << to_uci(rec->bests[0].move);  // any back-rank drop
}

TEST(Engine, ReportsAndPlaysAForcedMate) {
  auto engine = make_engine();
  engine->set_position("5r1k/6pp/8/8/2B5/8/5PPP/6K1[QN] w - - 0 1", {});
  auto rec = std::make_shared<Recorder>();
  SearchLimits limits;
  limits.nodes = 50000;
  engine->go(limits, rec);
  engine->wait();
  ASSERT_EQ(rec->count(), 1u);
  EXPECT_EQ(to_uci(rec->bests[0].move), "Q@g8");
  EXPECT_EQ(to_uci(rec->bests[0].ponder), "f8g8");
  ASSERT_TRUE(rec->infos.back().mate.has_value());
  EXPECT_EQ(*rec->infos.back().mate, 2);
  EXPECT_EQ(rec->bests[0].reason, StopReason::kSolved);
}

TEST(Engine, PonderWaitsForPonderhitThenFollowsTheClock) {
  test::FakeClock clock;
  auto engine = make_engine(2, clock);
  engine->set_position("", {"e2e4"});
  auto rec = std::make_shared<Recorder>();
  SearchLimits limits;
  limits.ponder = true;
  limits.wtime = 3000;
  limits.btime = 3000;
  engine->go(limits, rec);
  // Pondering, the clock does not count: more than black's whole clock passes without a move.
  EXPECT_TRUE(run_clock_without_bestmove(clock, *rec, 4s));
  const TimePoint hit = clock.now();
  engine->ponderhit();
  ASSERT_TRUE(run_clock_until_bestmove(clock, *rec));
  // From the ponderhit on the budget rules: 3000 / 35 - 300 < 20 ms, the shortest search; the
  // maximum is 1.5 times that.
  EXPECT_GE(clock.now() - hit, 20ms);
  EXPECT_LE(clock.now() - hit, 30ms);
  engine->wait();
  EXPECT_EQ(rec->bests[0].reason, StopReason::kRequested);
}

TEST(Engine, StopDuringPonderYieldsBestmove) {
  auto engine = make_engine();
  auto rec = std::make_shared<Recorder>();
  SearchLimits limits;
  limits.ponder = true;
  limits.wtime = 60000;
  limits.btime = 60000;
  engine->go(limits, rec);
  engine->stop();
  ASSERT_TRUE(rec->wait_bestmove(30s));
  engine->wait();
  EXPECT_EQ(rec->count(), 1u);
}

TEST(Engine, ClockedSearchStaysInsideItsBudget) {
  test::FakeClock clock;
  auto engine = make_engine(2, clock);
  auto rec = std::make_shared<Recorder>();
  SearchLimits limits;
  limits.wtime = 10000;  // 10000 / 35 - 300 < 20: the minimum search, at most 30 ms
  limits.btime = 10000;
  const TimePoint start = clock.now();
  engine->go(limits, rec);
  ASSERT_TRUE(run_clock_until_bestmove(clock, *rec));
  EXPECT_GE(clock.now() - start, 20ms);
  EXPECT_LE(clock.now() - start, 30ms);
  engine->wait();
  EXPECT_EQ(rec->count(), 1u);
  EXPECT_EQ(rec->bests[0].reason, StopReason::kRequested);
}

// A clocked search that ends on its own at once: its one playout is the root's expansion.
SearchLimits capped_search(bool human, std::int64_t min_think_ms) {
  SearchLimits limits;
  limits.wtime = 60000;
  limits.btime = 60000;
  limits.nodes = 1;
  limits.human_opponent = human;
  limits.min_think_ms = min_think_ms;
  return limits;
}

TEST(Engine, ASearchThatEndsEarlyStillKeepsTheHumanMinimumThinkTime) {
  test::FakeClock clock;
  auto engine = make_engine(1, clock);
  auto rec = std::make_shared<Recorder>();
  const TimePoint start = clock.now();
  engine->go(capped_search(true, 400), rec);
  EXPECT_TRUE(run_clock_without_bestmove(clock, *rec, 399ms));
  EXPECT_EQ(clock.now() - start, 399ms);
  clock.advance(1ms);
  ASSERT_TRUE(rec->wait_bestmove(30s));
  EXPECT_EQ(rec->bests[0].reason, StopReason::kPlayouts);
}

TEST(Engine, ASearchThatEndsEarlyAgainstABotAnswersAtOnce) {
  // The clock stands still: only the search's own end can bring the move.
  test::FakeClock clock;
  auto engine = make_engine(1, clock);
  auto rec = std::make_shared<Recorder>();
  engine->go(capped_search(false, 400), rec);
  ASSERT_TRUE(rec->wait_bestmove(30s));
  EXPECT_EQ(rec->bests[0].reason, StopReason::kPlayouts);
}

TEST(Engine, StopEndsTheMinimumThinkWaitAtOnce) {
  test::FakeClock clock;
  auto engine = make_engine(1, clock);
  auto rec = std::make_shared<Recorder>();
  engine->go(capped_search(true, 5000), rec);
  ASSERT_TRUE(clock.wait_parked());  // waiting for the minimum think time
  engine->stop();
  ASSERT_TRUE(rec->wait_bestmove(30s));  // with the clock standing still
  EXPECT_EQ(rec->count(), 1u);
}

TEST(Engine, SetPositionReusesTheTree) {
  auto engine = make_engine(1);
  auto rec = std::make_shared<Recorder>();
  SearchLimits limits;
  limits.nodes = 3000;
  engine->go(limits, rec);
  engine->wait();
  const BestMove b = rec->bests.at(0);
  ASSERT_FALSE(b.ponder.is_null());
  engine->set_position("", {to_uci(b.move), to_uci(b.ponder)});
  auto rec2 = std::make_shared<Recorder>();
  limits.nodes = 100;
  engine->go(limits, rec2);
  engine->wait();
  bool reused = false;
  for (const auto& m : rec2->messages) reused |= m.rfind("reusing ", 0) == 0;
  EXPECT_TRUE(reused);
  EXPECT_GT(engine->last_result().root_visits, 100u);
}

TEST(Engine, OneThreadWithASeedIsDeterministic) {
  // What `zhbot bench` relies on for its node count and signature.
  std::vector<std::uint32_t> visits[2];
  for (auto& v : visits) {
    auto engine = make_engine(1);
    engine->set_position("r2q1rk1/ppp2pp1/1bnp3p/3B4/3PP1b1/4PN2/PP4PP/R2Q1RK1[BNPnp] b - - 0 13",
                         {});
    SearchLimits limits;
    limits.nodes = 3000;
    engine->go(limits, std::make_shared<Recorder>());
    engine->wait();
    for (const auto& c : engine->last_result().children) v.push_back(c.visits);
  }
  EXPECT_EQ(visits[0], visits[1]);
  EXPECT_GT(visits[0].size(), 50u);
}

TEST(Engine, OpeningTemperatureSamplesOnlyWhenAskedFor) {
  for (int moves : {0, 4}) {
    auto engine = make_engine(1);
    engine->set_option("temperature", "5");
    std::set<std::uint16_t> played;
    for (int i = 0; i < 8; ++i) {
      engine->new_game();
      auto rec = std::make_shared<Recorder>();
      SearchLimits limits;
      limits.nodes = 400;
      limits.sampled_moves = moves;
      engine->go(limits, rec);
      engine->wait();
      played.insert(rec->bests.at(0).move.raw());
    }
    if (moves == 0)
      EXPECT_EQ(played.size(), 1u);
    else
      EXPECT_GT(played.size(), 1u);
  }
}

TEST(Engine, OpeningSamplingEndsAfterItsMoves) {
  // Black's second move (one of black's moves played): sampled with 2 moves, not with 1.
  for (int moves : {1, 2}) {
    auto engine = make_engine(1);
    engine->set_option("temperature", "5");
    std::set<std::uint16_t> played;
    for (int i = 0; i < 8; ++i) {
      engine->set_position("", {"e2e4", "e7e5", "g1f3"});
      auto rec = std::make_shared<Recorder>();
      SearchLimits limits;
      limits.nodes = 400;
      limits.sampled_moves = moves;
      engine->go(limits, rec);
      engine->wait();
      played.insert(rec->bests.at(0).move.raw());
      engine->new_game();
    }
    EXPECT_EQ(played.size() > 1, moves == 2) << moves;
  }
}

TEST(Engine, NoLegalMoveGivesNullBestmove) {
  auto engine = make_engine();
  engine->set_position("R5k1/5ppp/8/8/8/8/8/6K1[] b - - 0 1", {});
  auto rec = std::make_shared<Recorder>();
  SearchLimits limits;
  limits.nodes = 100;
  engine->go(limits, rec);
  engine->wait();
  ASSERT_EQ(rec->count(), 1u);
  EXPECT_TRUE(rec->bests[0].move.is_null());
}

TEST(Engine, BadInputChangesNothing) {
  auto engine = make_engine();
  engine->set_position("", {"e2e4"});
  EXPECT_THROW(engine->set_position("", {"e2e4", "e2e4"}), MoveError);
  EXPECT_THROW(engine->set_position("not a fen", {}), FenError);
  EXPECT_EQ(engine->game().moves().size(), 1u);
  EXPECT_THROW(engine->set_option("threads", "0"), OptionError);
  EXPECT_THROW(engine->set_option("backend", "nonsense"), OptionError);
}

TEST(Engine, EveryKindOfSearchRunsOnTheSameLongLivedThreads) {
  auto evaluator = std::make_shared<test::ThreadRecordingEvaluator>();
  Engine engine([evaluator](const Options&) {
    LoadedEvaluator loaded;
    loaded.evaluator = evaluator;
    loaded.backend = "thread-recording";
    return loaded;
  });
  engine.set_option("threads", "2");
  std::vector<std::string> moves;
  for (int round = 0; round < 3; ++round) {
    auto rec = std::make_shared<Recorder>();
    SearchLimits nodes;  // ends on its own
    nodes.nodes = 300;
    engine.go(nodes, rec);
    ASSERT_TRUE(rec->wait_bestmove(5000ms, 1));
    SearchLimits timed;  // ends by the clock
    timed.movetime = 30;
    engine.go(timed, rec);
    ASSERT_TRUE(rec->wait_bestmove(5000ms, 2));
    SearchLimits ponder;  // ends after ponderhit, by the clock
    ponder.ponder = true;
    ponder.wtime = ponder.btime = 2000;
    engine.go(ponder, rec);
    engine.ponderhit();
    ASSERT_TRUE(rec->wait_bestmove(5000ms, 3));
    SearchLimits infinite;  // ends by stop
    infinite.infinite = true;
    engine.go(infinite, rec);
    engine.stop();
    ASSERT_TRUE(rec->wait_bestmove(5000ms, 4));
    engine.wait();
    for (const auto& b : rec->bests) EXPECT_FALSE(b.move.is_null());
    moves.push_back(to_uci(rec->bests.back().move));
    engine.set_position("", moves);
  }
  // The engine's search thread expands each root; two workers do the rest, every time.
  EXPECT_LE(evaluator->threads_seen(), 3u);
}

TEST(Engine, RacingCallsNeverDeadlockAndEveryGoAnswers) {
  auto engine = make_engine(2);
  auto rec = std::make_shared<Recorder>();
  std::atomic<bool> done{false};
  std::thread poker([&] {
    while (!done) {
      engine->stop();
      engine->ponderhit();
      std::this_thread::sleep_for(1ms);
    }
  });
  int gos = 0;
  for (int i = 0; i < 40; ++i) {
    SearchLimits limits;
    limits.infinite = i % 3 == 0;
    limits.ponder = i % 3 == 1;
    limits.nodes = i % 3 == 2 ? 200 : 0;
    engine->go(limits, rec);
    ++gos;
    if (i % 4 == 0) engine->set_position("", {"e2e4"});
    if (i % 5 == 0) engine->new_game();
  }
  engine->stop();
  engine->wait();
  done = true;
  poker.join();
  EXPECT_EQ(rec->count(), std::size_t(gos));
}

}  // namespace
}  // namespace zh
