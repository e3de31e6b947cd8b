#include "engine/chess/pgn_reader.h"

#include <gtest/gtest.h>

#include <sstream>

namespace zh {
namespace {

TEST(PgnReader, ReadsTagsAndTheMainLineSkippingCommentsVariationsAndNags) {
  std::istringstream in(
      "[Event \"Casual\"]\n"
      "[Variant \"Crazyhouse\"]\n"
      "[White \"a \\\"quoted\\\" name\"]\n"
      "\n"
      "1. e4 { [%eval 0.3] [%clk 0:01:00] } 1... d5 2. exd5 (2. e5 c5) Qxd5 $1 3.Nc3 Qa5\n"
      "4. P@d4!? ; a comment to the end of the line (not a variation\n"
      "N@c6 {multi\nline comment} 1-0\n"
      "\n"
      "[Event \"second\"]\n"
      "\n"
      "1. d4 *\n");
  PgnReader reader(in);
  auto g = reader.next();
  ASSERT_TRUE(g);
  EXPECT_EQ(g->line, 1u);
  EXPECT_EQ(g->tags["Variant"], "Crazyhouse");
  EXPECT_EQ(g->tags["White"], "a \"quoted\" name");
  const std::vector<std::string> moves = {"e4",  "d5",  "exd5",   "Qxd5",
                                          "Nc3", "Qa5", "P@d4!?", "N@c6"};
  EXPECT_EQ(g->moves, moves);
  EXPECT_EQ(g->result, "1-0");
  auto h = reader.next();
  ASSERT_TRUE(h);
  EXPECT_EQ(h->line, 10u);
  EXPECT_EQ(h->tags["Event"], "second");
  EXPECT_EQ(h->moves, std::vector<std::string>{"d4"});
  EXPECT_EQ(h->result, "*");
  EXPECT_FALSE(reader.next());
}

TEST(PgnReader, AGameWithoutAResultEndsAtTheNextTags) {
  std::istringstream in("[Event \"a\"]\n\n1. e4 e5\n[Event \"b\"]\n\n1. d4\n");
  PgnReader reader(in);
  auto a = reader.next();
  ASSERT_TRUE(a);
  EXPECT_EQ(a->moves.size(), 2u);
  EXPECT_EQ(a->result, "");
  auto b = reader.next();
  ASSERT_TRUE(b);
  EXPECT_EQ(b->tags["Event"], "b");
  EXPECT_EQ(b->moves, std::vector<std::string>{"d4"});
  EXPECT_FALSE(reader.next());
}

}  // namespace
}  // namespace zh
