#include "bot/game/server_board.h"

#include <gtest/gtest.h>

#include "engine/chess/notation.h"

namespace zh::bot {
namespace {

std::shared_ptr<spdlog::logger> quiet() { return spdlog::default_logger()->clone("board"); }

TEST(ServerBoard, FollowsTheServersListAndExtendsIt) {
  ServerBoard board("startpos", quiet());
  EXPECT_FALSE(board.valid());
  ASSERT_TRUE(board.update(""));
  EXPECT_EQ(board.plies(), 0);
  ASSERT_TRUE(board.update("e2e4 e7e5"));
  ASSERT_TRUE(board.update("e2e4 e7e5 g1f3"));
  EXPECT_EQ(board.plies(), 3);
  EXPECT_EQ(board.moves(), (std::vector<std::string>{"e2e4", "e7e5", "g1f3"}));
  EXPECT_EQ(board.game().moves().size(), 3u);
  EXPECT_EQ(board.game().position().side_to_move(), kBlack);
}

TEST(ServerBoard, ATakebackRebuildsFromTheStart) {
  ServerBoard board("startpos", quiet());
  ASSERT_TRUE(board.update("e2e4 e7e5 g1f3"));
  ASSERT_TRUE(board.update("e2e4"));
  EXPECT_EQ(board.plies(), 1);
  Game expected;
  expected.play_uci("e2e4");
  EXPECT_EQ(board.game().position().fen(), expected.position().fen());
}

TEST(ServerBoard, AMoveOurRulesRejectInvalidatesUntilTheNextGoodList) {
  ServerBoard board("startpos", quiet());
  ASSERT_TRUE(board.update("e2e4"));
  EXPECT_FALSE(board.update("e2e4 e7e4"));  // not a legal move
  EXPECT_FALSE(board.valid());
  EXPECT_EQ(board.moves_text(), "e2e4");  // the last good list
  ASSERT_TRUE(board.update("e2e4 e7e5"));
  EXPECT_TRUE(board.valid());
}

TEST(ServerBoard, StartsFromTheGamesFenAndTakesBothCastlingForms) {
  ServerBoard board("r3k2r/8/8/8/8/8/8/R3K2R[] w KQkq - 0 1", quiet());
  ASSERT_TRUE(board.update("e1h1"));  // lichess's king-to-rook form
  EXPECT_EQ(to_uci(board.game().moves()[0]), "e1g1");
  ServerBoard bad("not a fen", quiet());
  EXPECT_FALSE(bad.update(""));
  EXPECT_FALSE(bad.valid());
}

}  // namespace
}  // namespace zh::bot
