#include "engine/util/strings.h"

#include <gtest/gtest.h>

namespace zh {
namespace {

TEST(Strings, LowerIsAsciiOnly) {
  EXPECT_EQ(lower("ZhBot_ID-9"), "zhbot_id-9");
  EXPECT_EQ(lower("\xC3\x84"), "\xC3\x84");  // UTF-8 bytes pass through
}

TEST(Strings, TrimRemovesSpacesTabsAndLineEnds) {
  EXPECT_EQ(trim("  a b \t\r\n"), "a b");
  EXPECT_EQ(trim(" \t "), "");
  EXPECT_EQ(trim(""), "");
}

TEST(Strings, SplitWords) {
  EXPECT_EQ(split_words("  go  wtime\t100 "), (std::vector<std::string>{"go", "wtime", "100"}));
  EXPECT_TRUE(split_words("   ").empty());
}

TEST(Strings, SplitListTrimsAndDropsEmptyItems) {
  EXPECT_EQ(split_list("bullet, blitz,,  rapid "),
            (std::vector<std::string>{"bullet", "blitz", "rapid"}));
  EXPECT_TRUE(split_list("").empty());
  EXPECT_TRUE(split_list(" , ").empty());
}

}  // namespace
}  // namespace zh
