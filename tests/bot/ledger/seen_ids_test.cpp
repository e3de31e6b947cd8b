#include "bot/ledger/seen_ids.h"

#include <gtest/gtest.h>

namespace zh::bot {
namespace {

TEST(SeenIds, EachIdIsNewOnce) {
  SeenIds seen;
  EXPECT_TRUE(seen.insert("a"));
  EXPECT_FALSE(seen.insert("a"));
  EXPECT_TRUE(seen.insert("b"));
  EXPECT_TRUE(seen.contains("a"));
}

TEST(SeenIds, OldestIdsAreForgottenPastTheCapacity) {
  SeenIds seen(3);
  for (const char* id : {"a", "b", "c", "d"}) EXPECT_TRUE(seen.insert(id));
  EXPECT_FALSE(seen.contains("a"));
  EXPECT_TRUE(seen.contains("d"));
  EXPECT_FALSE(seen.insert("b"));
}

TEST(SeenIds, AForgottenIdIsNewAgain) {
  SeenIds seen;
  EXPECT_TRUE(seen.insert("a"));
  seen.forget("a");
  EXPECT_FALSE(seen.contains("a"));
  EXPECT_TRUE(seen.insert("a"));
  EXPECT_FALSE(seen.insert("a"));
}

}  // namespace
}  // namespace zh::bot
