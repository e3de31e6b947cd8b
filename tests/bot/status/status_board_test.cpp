#include "bot/status/status_board.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "tests/bot/status/status_fixtures.h"

namespace zh::bot {
namespace {

// A wall clock the test moves.
struct FakeWallClock {
  std::int64_t ms = 1700000000000;
  std::function<std::int64_t()> fn() {
    return [this] { return ms; };
  }
};

TEST(StatusBoard, AGameIsShownUntilItEndsThenHeadsTheFinishedList) {
  FakeWallClock wall;
  StatusBoard board(wall.fn());
  board.publish_game(std::make_shared<const GameView>(test::sample_game("g1")));
  board.publish_game(std::make_shared<const GameView>(test::sample_game("g2")));
  ASSERT_EQ(board.snapshot().games.size(), 2u);
  wall.ms += 5000;
  board.end_game("g1", "win");
  const StatusSnapshot s = board.snapshot();
  ASSERT_EQ(s.games.size(), 1u);
  EXPECT_EQ(s.games[0].id, "g2");
  ASSERT_EQ(s.finished.size(), 1u);
  const FinishedGame& f = s.finished[0];
  EXPECT_EQ(f.id, "g1");
  EXPECT_EQ(f.result, "win");
  EXPECT_EQ(f.opponent.name, "Rival");
  EXPECT_EQ(f.our_rating, 2012);
  EXPECT_EQ(f.plies, 6);
  EXPECT_EQ(f.ended_unix_ms, wall.ms);
  EXPECT_FALSE(f.rating_diff);
}

TEST(StatusBoard, AnAbortedGameOrOneLeftAtShutdownIsNotAFinishedGame) {
  StatusBoard board;
  board.publish_game(std::make_shared<const GameView>(test::sample_game("g1")));
  board.publish_game(std::make_shared<const GameView>(test::sample_game("g2")));
  board.end_game("g1", "aborted");
  board.drop_game("g2");
  const StatusSnapshot s = board.snapshot();
  EXPECT_TRUE(s.games.empty());
  EXPECT_TRUE(s.finished.empty());
}

TEST(StatusBoard, RatingDiffsMakeTheRatingHistoryWhicheverArrivesFirst) {
  FakeWallClock wall;
  StatusBoard board(wall.fn());
  board.set_account("zhbot", "BOT", 2012);
  board.publish_game(std::make_shared<const GameView>(test::sample_game("g1")));
  board.publish_game(std::make_shared<const GameView>(test::sample_game("g2")));
  board.end_game("g1", "win");
  board.note_rating_diff("g1", 7);   // gameFinish after the game stream's end
  board.note_rating_diff("g2", -4);  // before it
  wall.ms += 1000;
  board.end_game("g2", "loss");
  const StatusSnapshot s = board.snapshot();
  ASSERT_EQ(s.rating_history.size(), 3u);
  EXPECT_EQ(s.rating_history[0].rating, 2012);  // the account's, at the start
  EXPECT_EQ(s.rating_history[1].rating, 2019);
  EXPECT_EQ(s.rating_history[2].rating, 2008);  // g2 started at 2012 as well
  EXPECT_EQ(s.finished[0].rating_diff, -4);
  EXPECT_EQ(s.finished[1].rating_diff, 7);
  EXPECT_EQ(s.connection.rating, 2008);
}

TEST(StatusBoard, EarlierRunsGoBeforeThisRunsGamesAndRatings) {
  FakeWallClock wall;
  StatusBoard board(wall.fn());
  board.set_account("zhbot", "BOT", 2012);
  FinishedGame old;
  old.id = "old00001";
  old.result = "draw";
  board.restore_history({old}, {{1600000000000, 1990}, {1600000600000, 2001}});
  board.publish_game(std::make_shared<const GameView>(test::sample_game("new00001")));
  board.note_rating_diff("new00001", 3);
  board.end_game("new00001", "win");
  const StatusSnapshot s = board.snapshot();
  ASSERT_EQ(s.finished.size(), 2u);
  EXPECT_EQ(s.finished[0].id, "new00001");
  EXPECT_EQ(s.finished[1].id, "old00001");
  ASSERT_EQ(s.rating_history.size(), 4u);
  EXPECT_EQ(s.rating_history[0].rating, 1990);
  EXPECT_EQ(s.rating_history[1].rating, 2001);
  EXPECT_EQ(s.rating_history[2].rating, 2012);  // the account's at this start
  EXPECT_EQ(s.rating_history[3].rating, 2015);
}

TEST(StatusBoard, TheStreamsUpsAndDownsAreCountedWithTheLastError) {
  FakeWallClock wall;
  StatusBoard board(wall.fn());
  board.stream_connected();
  EXPECT_TRUE(board.snapshot().connection.event_stream_up);
  EXPECT_EQ(board.snapshot().connection.up_since_unix_ms, wall.ms);
  wall.ms += 60000;
  board.stream_lost("event stream lost: closed by the server");
  ConnectionView c = board.snapshot().connection;
  EXPECT_FALSE(c.event_stream_up);
  EXPECT_EQ(c.up_since_unix_ms, 0);
  EXPECT_EQ(c.reconnects, 1);
  EXPECT_EQ(c.last_error, "event stream lost: closed by the server");
  EXPECT_EQ(c.last_error_unix_ms, wall.ms);
  board.stream_lost("again, while down");  // a failed reconnect is not another drop
  EXPECT_EQ(board.snapshot().connection.reconnects, 1);
  board.set_draining();
  EXPECT_TRUE(board.snapshot().connection.draining);
}

TEST(StatusBoard, DeclinesAndFinishedGamesAreCappedNewestFirst) {
  StatusBoard board;
  for (std::size_t i = 0; i < StatusBoard::kMaxDeclines + 5; ++i) {
    DeclinedChallenge d = test::sample_decline();
    d.id = "c" + std::to_string(i);
    board.add_decline(d);
  }
  const StatusSnapshot s = board.snapshot();
  ASSERT_EQ(s.declines.size(), StatusBoard::kMaxDeclines);
  EXPECT_EQ(s.declines.front().id, "c" + std::to_string(StatusBoard::kMaxDeclines + 4));
}

TEST(StatusBoard, TheEvaluatorIsReadAtEachSnapshot) {
  StatusBoard board;
  int calls = 0;
  board.set_evaluator_source([&] {
    ++calls;
    EvaluatorView v;
    v.backend = "torch";
    v.healthy = calls < 2;
    return v;
  });
  EXPECT_TRUE(board.snapshot().evaluator.healthy);
  EXPECT_FALSE(board.snapshot().evaluator.healthy);
  EXPECT_EQ(calls, 2);
}

// Games publish while the HTTP thread reads: every snapshot holds whole games (run under TSan
// in CI's sanitizer build).
TEST(StatusBoard, PublishingAndReadingAtOnceGiveWholeGames) {
  StatusBoard board;
  std::atomic<bool> stop{false};
  std::thread publisher([&] {
    for (int ply = 0; !stop; ++ply) {
      GameView g = test::sample_game();
      g.board.plies = ply;
      g.eval_history.assign(std::size_t(ply % 50), EvalPoint{ply, 0, std::nullopt});
      board.publish_game(std::make_shared<const GameView>(std::move(g)));
    }
  });
  for (int i = 0; i < 2000; ++i) {
    for (const auto& g : board.snapshot().games)
      ASSERT_EQ(g.eval_history.size(), std::size_t(g.board.plies % 50));
  }
  stop = true;
  publisher.join();
}

}  // namespace
}  // namespace zh::bot
