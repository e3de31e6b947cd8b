// The finished games and ratings of earlier runs, read back from PGN files the real writer made.
#include "bot/status/pgn_history.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "bot/pgn/pgn_writer.h"

namespace zh::bot {
namespace {

class PgnHistoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("zhbot-pgn-history-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // A game of ours (ZhBot) saved as the daemon saves it.
  void save(const std::string& id, std::int64_t start_ms, bool white, int our_elo,
            const std::string& winner, bool rated = true) {
    PgnGame g;
    g.game_id = id;
    g.rated = rated;
    g.start_time_ms = start_ms;
    g.white = white ? "ZhBot" : "Opponent" + id;
    g.black = white ? "Opponent" + id : "ZhBot";
    (white ? g.black_title : g.white_title) = "BOT";
    g.white_elo = white ? our_elo : 1700;
    g.black_elo = white ? 1700 : our_elo;
    g.uci_moves = {"e2e4", "e7e5"};
    g.status = winner.empty() ? "draw" : "resign";
    g.winner = winner;
    save_pgn(dir_, g);
  }

  std::filesystem::path dir_;
};

TEST_F(PgnHistoryTest, FinishedGamesNewestFirstAndRatingsOldestFirst) {
  save("game0001", 1700000000000, true, 1500, "white");      // a win as White
  save("game0002", 1700000600000, false, 1508, "white");     // a loss as Black
  save("game0003", 1700001200000, true, 1500, "", false);    // a casual draw
  const PgnHistory h = read_pgn_history(dir_, "zhbot", 10);  // any case
  ASSERT_EQ(h.finished.size(), 3u);
  EXPECT_EQ(h.finished[0].id, "game0003");
  EXPECT_EQ(h.finished[0].result, "draw");
  EXPECT_FALSE(h.finished[0].rated);
  const FinishedGame& loss = h.finished[1];
  EXPECT_EQ(loss.id, "game0002");
  EXPECT_EQ(loss.url, "https://lichess.org/game0002");
  EXPECT_EQ(loss.result, "loss");
  EXPECT_EQ(loss.color, "black");
  EXPECT_EQ(loss.opponent.name, "Opponentgame0002");
  EXPECT_EQ(loss.opponent.title, "BOT");
  EXPECT_EQ(loss.opponent.rating, 1700);
  EXPECT_EQ(loss.our_rating, 1508);
  EXPECT_TRUE(loss.rated);
  EXPECT_EQ(loss.ended_unix_ms, 1700000600000);
  EXPECT_EQ(h.finished[2].result, "win");
  ASSERT_EQ(h.ratings.size(), 2u);  // rated games only
  EXPECT_EQ(h.ratings[0].at_unix_ms, 1700000000000);
  EXPECT_EQ(h.ratings[0].rating, 1500);
  EXPECT_EQ(h.ratings[1].rating, 1508);
}

TEST_F(PgnHistoryTest, OtherPlayersGamesAndStrayFilesAreSkipped) {
  save("game0001", 1700000000000, true, 1500, "white");
  PgnGame other;
  other.game_id = "other001";
  other.white = "Alice";
  other.black = "Bob";
  other.status = "mate";
  other.winner = "white";
  save_pgn(dir_, other);
  std::ofstream(dir_ / "notes.pgn") << "not a pgn at all\n";
  std::ofstream(dir_ / "game0009.txt") << "[White \"ZhBot\"]\n";
  const PgnHistory h = read_pgn_history(dir_, "ZhBot", 10);
  ASSERT_EQ(h.finished.size(), 1u);
  EXPECT_EQ(h.finished[0].id, "game0001");
}

TEST_F(PgnHistoryTest, AMissingDirectoryIsNoHistory) {
  EXPECT_TRUE(read_pgn_history(dir_ / "absent", "ZhBot", 10).finished.empty());
}

}  // namespace
}  // namespace zh::bot
