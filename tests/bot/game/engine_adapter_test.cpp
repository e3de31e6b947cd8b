// EngineAdapter over a real Engine (uniform evaluator): the session's Game in, a legal Move
// out, exactly one answer per think, pondering ended by the next think, and a search that
// cannot start still answers.
#include "bot/game/engine_adapter.h"

#include <gtest/gtest.h>

#include <optional>

#include "engine/chess/notation.h"
#include "tests/bot/result_sink.h"

namespace zh::bot {
namespace {

using test::ResultSink;

std::unique_ptr<Engine> uniform_engine() {
  auto e = std::make_unique<Engine>();
  e->set_option("backend", "uniform");
  e->set_option("threads", "1");
  e->set_option("seed", "5");
  return e;
}

SearchLimits playouts(std::int64_t n) {
  SearchLimits l;
  l.nodes = n;
  return l;
}

TEST(EngineAdapter, AnswersTheSessionsGameWithALegalMove) {
  EngineAdapter adapter(uniform_engine());
  adapter.new_game();
  Game game;
  game.play_uci("e2e4");
  game.play_uci("d7d5");
  ResultSink answers;
  adapter.think(game, playouts(300), answers.callback());
  const std::optional<ThinkResult> answer = answers.wait(0);
  ASSERT_TRUE(answer);
  const ThinkResult& r = *answer;
  ASSERT_FALSE(r.move.is_null()) << r.error;
  EXPECT_TRUE(game.position().is_legal(r.move)) << to_uci(r.move);
  EXPECT_GT(r.nodes, 0);
  EXPECT_FALSE(r.best_san.empty());
  EXPECT_NE(adapter.description().find("uniform"), std::string::npos);
}

TEST(EngineAdapter, ThinkingEndsPonderingAndAnswersOnce) {
  ResultSink answers;
  {
    EngineAdapter adapter(uniform_engine());
    adapter.new_game();
    Game game;
    game.play_uci("e2e4");
    adapter.ponder(game);  // on the opponent's time, until the next think
    EXPECT_TRUE(adapter.pondering());
    game.play_uci("e7e5");  // the opponent's reply: our turn again
    adapter.think(game, playouts(200), answers.callback());
    EXPECT_FALSE(adapter.pondering());
    EXPECT_TRUE(answers.wait(0));
  }  // the adapter waits for its engine to be idle: no answer can come after this
  EXPECT_EQ(answers.count(), 1u);  // exactly one answer
}

TEST(EngineAdapter, ASearchThatCannotStartStillAnswers) {
  auto engine = std::make_unique<Engine>([](const Options&) -> LoadedEvaluator {
    throw std::runtime_error("model file 'x.pt': is corrupt");
  });
  EngineAdapter adapter(std::move(engine));
  ResultSink answers;
  adapter.think(Game(), playouts(10), answers.callback());
  const std::optional<ThinkResult> answer = answers.wait(0);
  ASSERT_TRUE(answer);  // the session would otherwise wait for a move forever
  EXPECT_TRUE(answer->move.is_null());
  EXPECT_NE(answer->error.find("x.pt"), std::string::npos) << answer->error;
}

}  // namespace
}  // namespace zh::bot
