#include "bot/lichess/ndjson_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace zh::bot {
namespace {

struct Collector {
  std::vector<std::string> lines;
  bool operator()(std::string_view line) {
    lines.emplace_back(line);
    return true;
  }
};

TEST(NdjsonReader, JoinsALineSplitAcrossReads) {
  NdjsonReader reader;
  std::vector<std::string> lines;
  auto on_line = [&](std::string_view l) {
    lines.emplace_back(l);
    return true;
  };
  reader.feed("{\"type\":\"ga", on_line);
  EXPECT_TRUE(lines.empty());
  reader.feed("meStart\"}\n{\"a\"", on_line);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "{\"type\":\"gameStart\"}");
  reader.feed(":1}\n", on_line);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1], "{\"a\":1}");
}

TEST(NdjsonReader, StripsCrlfAndCountsEmptyLinesAsHeartbeats) {
  NdjsonReader reader;
  Collector c;
  reader.feed("\n\r\n{\"x\":1}\r\n\n  \n", std::ref(c));
  ASSERT_EQ(c.lines.size(), 1u);
  EXPECT_EQ(c.lines[0], "{\"x\":1}");
  EXPECT_EQ(reader.heartbeats(), 4u);
  EXPECT_EQ(reader.lines(), 1u);
}

TEST(NdjsonReader, CrAtTheEndOfOneReadAndLfAtTheStartOfTheNext) {
  NdjsonReader reader;
  Collector c;
  reader.feed("{\"x\":1}\r", std::ref(c));
  reader.feed("\n", std::ref(c));
  ASSERT_EQ(c.lines.size(), 1u);
  EXPECT_EQ(c.lines[0], "{\"x\":1}");
}

TEST(NdjsonReader, ByteByByteGivesTheSameLines) {
  const std::string text = "{\"a\":1}\n\n{\"b\":2}\r\n{\"c\":3}\n";
  NdjsonReader reader;
  Collector c;
  for (char ch : text) reader.feed(std::string_view(&ch, 1), std::ref(c));
  EXPECT_EQ(c.lines, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"}));
  EXPECT_EQ(reader.heartbeats(), 1u);
}

TEST(NdjsonReader, HandlerCanStopTheStream) {
  NdjsonReader reader;
  int calls = 0;
  const bool more = reader.feed("1\n2\n3\n", [&](std::string_view) { return ++calls < 2; });
  EXPECT_FALSE(more);
  EXPECT_EQ(calls, 2);
}

TEST(NdjsonReader, DropsAnOversizeLineAndKeepsTheNext) {
  NdjsonReader reader;
  Collector c;
  const std::string big(NdjsonReader::kMaxLineBytes + 10, 'x');
  reader.feed(big.substr(0, 1000), std::ref(c));
  reader.feed(big.substr(1000), std::ref(c));
  reader.feed("\n{\"ok\":1}\n", std::ref(c));
  EXPECT_EQ(reader.dropped_oversize(), 1u);
  EXPECT_EQ(c.lines, (std::vector<std::string>{"{\"ok\":1}"}));
}

TEST(NdjsonReader, ResetForgetsAPartialLine) {
  NdjsonReader reader;
  Collector c;
  reader.feed("{\"half", std::ref(c));
  reader.reset();
  reader.feed("{\"whole\":1}\n", std::ref(c));
  EXPECT_EQ(c.lines, (std::vector<std::string>{"{\"whole\":1}"}));
}

}  // namespace
}  // namespace zh::bot
