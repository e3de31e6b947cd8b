#include "bot/book/book_move_engine.h"

#include <gtest/gtest.h>

#include "tests/bot/book/book_test_support.h"
#include "tests/support/fake_clock.h"

namespace zh::bot {
namespace {

using test::book_config;
using test::game_after;
using test::RecordingEngine;
using test::ResultSink;
using test::ScriptedExplorer;

struct Fixture {
  explicit Fixture(BookConfig config, std::shared_ptr<OpeningExplorer> explorer = nullptr,
                   bool with_book = true, Clock& clock = steady_clock()) {
    auto sources = std::make_shared<BookSources>();
    sources->config = config;
    if (with_book) sources->book = test::small_book();
    sources->explorer = std::move(explorer);
    auto recording = std::make_unique<RecordingEngine>();
    inner = recording.get();
    engine = std::make_unique<BookMoveEngine>(std::move(recording), sources, 42, clock);
  }
  // The sink outlives the engine: the engine's destructor joins the thread that delivers.
  ResultSink sink;
  RecordingEngine* inner = nullptr;
  std::unique_ptr<BookMoveEngine> engine;
};

SearchLimits bot_limits() {
  SearchLimits l;
  l.wtime = 60000;
  l.btime = 60000;
  return l;
}

TEST(BookMoveEngine, AnswersFromTheBookWithoutSearching) {
  Fixture f(book_config());
  f.engine->new_game();
  f.engine->think(Game(), bot_limits(), f.sink.callback());
  const auto r = f.sink.wait(0);
  ASSERT_TRUE(r);
  EXPECT_EQ(to_uci(r->move), "e2e4");  // selection best
  EXPECT_EQ(r->book, "book");
  EXPECT_EQ(r->book_detail, "weight 300 of 400");
  EXPECT_EQ(r->best_san, "e4");
  EXPECT_EQ(f.inner->thinks(), 0u);
  EXPECT_EQ(f.inner->new_games.load(), 1);
}

TEST(BookMoveEngine, ABookAnswerEndsThePonderSearch) {
  Fixture f(book_config());
  f.engine->ponder(game_after("e2e4"));
  EXPECT_TRUE(f.engine->pondering());
  f.engine->think(game_after("e2e4"), bot_limits(), f.sink.callback());
  ASSERT_TRUE(f.sink.wait(0));
  EXPECT_FALSE(f.engine->pondering());
  EXPECT_EQ(f.inner->stops.load(), 1);
}

TEST(BookMoveEngine, PlaysDropsFromTheBook) {
  Fixture f(book_config());
  f.engine->think(game_after("e2e4 d7d5 e4d5 d8d5"), bot_limits(), f.sink.callback());
  const auto r = f.sink.wait(0);
  ASSERT_TRUE(r);
  EXPECT_EQ(to_uci(r->move), "P@e4");
  EXPECT_EQ(r->best_san, "P@e4");
}

TEST(BookMoveEngine, SearchesOutOfBookAndPastMaxPly) {
  BookConfig c = book_config();
  c.max_ply = 1;
  Fixture f(c);
  // Not in the book: the search.
  f.engine->think(game_after("d2d4"), bot_limits(), f.sink.callback());
  ASSERT_TRUE(f.inner->wait_think(0));
  EXPECT_EQ(f.inner->wait_think(0)->moves, "d2d4");
  // In the book, but at ply 1 with max_ply 1: the search too.
  f.engine->think(game_after("e2e4"), bot_limits(), f.sink.callback());
  ASSERT_TRUE(f.inner->wait_think(1));
  EXPECT_EQ(f.sink.count(), 0u);
}

TEST(BookMoveEngine, MinWeightLeavesLightMovesToTheSearch) {
  BookConfig c = book_config();
  c.min_weight = 20;
  Fixture f(c);
  f.engine->think(game_after("e2e4"), bot_limits(), f.sink.callback());  // e7e5 weighs 10
  ASSERT_TRUE(f.inner->wait_think(0));
}

TEST(BookMoveEngine, WeightedChoiceVariesWithTheWeights) {
  BookConfig c = book_config();
  c.selection = book::Selection::kWeighted;
  Fixture f(c);
  int e4 = 0;
  const int n = 200;
  for (int i = 0; i < n; ++i) {
    f.engine->think(Game(), bot_limits(), f.sink.callback());
    const auto r = f.sink.wait(std::size_t(i));
    ASSERT_TRUE(r);
    e4 += to_uci(r->move) == "e2e4";
  }
  EXPECT_GT(e4, n / 2);  // 3 : 1
  EXPECT_LT(e4, n);      // d4 comes up too
}

TEST(BookMoveEngine, BookDelayIsTheHumanMinimumCappedByTheClock) {
  SearchLimits l = bot_limits();
  l.min_think_ms = 1000;
  EXPECT_EQ(BookMoveEngine::book_delay_ms(l, kWhite), 0);  // a bot: no wait
  l.human_opponent = true;
  EXPECT_EQ(BookMoveEngine::book_delay_ms(l, kWhite), 1000);
  l.wtime = 10000;  // 1/20 of 10 s
  EXPECT_EQ(BookMoveEngine::book_delay_ms(l, kWhite), 500);
  EXPECT_EQ(BookMoveEngine::book_delay_ms(l, kBlack), 1000);
  SearchLimits untimed;
  untimed.human_opponent = true;
  untimed.min_think_ms = 700;
  EXPECT_EQ(BookMoveEngine::book_delay_ms(untimed, kWhite), 700);
}

TEST(BookMoveEngine, AgainstAHumanTheBookMoveWaitsTheMinimumThinkTime) {
  zh::test::FakeClock clock;
  Fixture f(book_config(), nullptr, true, clock);
  SearchLimits l = bot_limits();
  l.human_opponent = true;
  l.min_think_ms = 300;
  f.engine->think(Game(), l, f.sink.callback());
  // Held back on the clock: 299 ms on, still no move.
  ASSERT_TRUE(clock.wait_parked());
  clock.advance(std::chrono::milliseconds(299));
  ASSERT_TRUE(clock.wait_parked());
  EXPECT_EQ(f.sink.count(), 0u);
  clock.advance(std::chrono::milliseconds(1));
  const auto r = f.sink.wait(0);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->time_ms, 300);  // what the session charges to our clock in the PGN
  EXPECT_EQ(f.inner->thinks(), 0u);
}

TEST(BookMoveEngine, StopDeliversAHeldBackMoveAtOnce) {
  Fixture f(book_config());
  SearchLimits l = bot_limits();
  l.human_opponent = true;
  l.min_think_ms = 60000;
  l.wtime.reset();  // untimed: nothing caps the wait
  l.btime.reset();
  f.engine->think(Game(), l, f.sink.callback());
  f.engine->stop();  // returns once the move is delivered
  EXPECT_EQ(f.sink.count(), 1u);
  EXPECT_GE(f.inner->stops.load(), 1);
}

ExplorerAnswer answer(std::vector<ExplorerMove> moves, std::string error = "") {
  ExplorerAnswer a;
  a.moves = std::move(moves);
  a.error = std::move(error);
  return a;
}

TEST(BookMoveEngine, AsksTheExplorerWhenTheBookHasNoMove) {
  BookConfig c = book_config();
  c.explorer = true;
  // e2e4 is frequent and good for White; a3 too rare; x9x9 unreadable.
  auto explorer = std::make_shared<ScriptedExplorer>(
      answer({{"e2e4", 600, 50, 350}, {"a2a3", 3, 0, 2}, {"x9x9", 500, 0, 500}}));
  Fixture f(c, explorer, /*with_book=*/false);
  f.engine->think(Game(), bot_limits(), f.sink.callback());
  const auto r = f.sink.wait(0);
  ASSERT_TRUE(r);
  EXPECT_EQ(to_uci(r->move), "e2e4");
  EXPECT_EQ(r->book, "explorer");
  EXPECT_EQ(r->book_detail, "1000 games");
  EXPECT_EQ(f.inner->thinks(), 0u);
  EXPECT_EQ(explorer->queries(), 1u);
}

TEST(BookMoveEngine, AFailedExplorerFallsBackToTheSearchAndIsNotAskedAgainThisGame) {
  BookConfig c = book_config();
  c.explorer = true;
  auto explorer = std::make_shared<ScriptedExplorer>(answer({}, "HTTP 429"));
  Fixture f(c, explorer, /*with_book=*/false);
  f.engine->new_game();
  SearchLimits l = bot_limits();
  l.human_opponent = true;
  l.min_think_ms = 1000;
  f.engine->think(Game(), l, f.sink.callback());
  const auto call = f.inner->wait_think(0);
  ASSERT_TRUE(call);
  // The search plans with the clock as it is after the query, never with more.
  ASSERT_TRUE(call->limits.wtime);
  EXPECT_LE(*call->limits.wtime, 60000);
  EXPECT_EQ(call->limits.btime, 60000);
  EXPECT_LE(call->limits.min_think_ms, 1000);
  EXPECT_TRUE(call->limits.human_opponent);
  // Next move of the same game: straight to the search.
  f.engine->think(game_after("e2e4 e7e5"), bot_limits(), f.sink.callback());
  ASSERT_TRUE(f.inner->wait_think(1));
  EXPECT_EQ(explorer->queries(), 1u);
  // A new game asks again.
  f.engine->new_game();
  f.engine->think(Game(), bot_limits(), f.sink.callback());
  ASSERT_TRUE(f.inner->wait_think(2));
  EXPECT_EQ(explorer->queries(), 2u);
}

TEST(BookMoveEngine, TheExplorerIsSkippedWhenTheClockIsLow) {
  BookConfig c = book_config();
  c.explorer = true;
  c.explorer_timeout_ms = 1000;
  auto explorer = std::make_shared<ScriptedExplorer>(answer({{"e2e4", 600, 50, 350}}));
  Fixture f(c, explorer, /*with_book=*/false);
  SearchLimits l = bot_limits();
  l.wtime = 15000;  // less than 20 timeouts
  f.engine->think(Game(), l, f.sink.callback());
  ASSERT_TRUE(f.inner->wait_think(0));
  EXPECT_EQ(explorer->queries(), 0u);
}

}  // namespace
}  // namespace zh::bot
