#include "bot/lichess/backoff.h"

#include <gtest/gtest.h>

namespace zh::bot {
namespace {

TEST(Backoff, DoublesFromOneSecondUpToTheCapWithoutJitter) {
  Backoff b({Millis(1000), Millis(60000), 2.0, 0.0}, [] { return 0.5; });
  const long expected[] = {1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000};
  for (long e : expected) EXPECT_EQ(b.next().count(), e);
}

TEST(Backoff, JitterStaysWithinBoundsAndTheOverallRange) {
  Backoff low({Millis(1000), Millis(60000), 2.0, 0.25}, [] { return 0.0; });
  Backoff high({Millis(1000), Millis(60000), 2.0, 0.25}, [] { return 0.999999; });
  EXPECT_EQ(low.next().count(), 1000);  // 750 clamped up to the 1 s floor
  EXPECT_EQ(high.next().count(), 1250);
  EXPECT_EQ(low.next().count(), 1500);
  EXPECT_EQ(high.next().count(), 2500);
  for (int i = 0; i < 20; ++i) {
    EXPECT_LE(high.next().count(), 60000);
    EXPECT_GE(low.next().count(), 1000);
  }
}

TEST(Backoff, ResetStartsOver) {
  Backoff b({Millis(1000), Millis(60000), 2.0, 0.0}, [] { return 0.5; });
  b.next();
  b.next();
  EXPECT_EQ(b.attempts(), 2);
  b.reset();
  EXPECT_EQ(b.next().count(), 1000);
}

TEST(Backoff, ManyAttemptsDoNotOverflow) {
  Backoff b({Millis(1000), Millis(60000), 2.0, 0.0}, [] { return 0.5; });
  for (int i = 0; i < 5000; ++i) ASSERT_EQ(b.next().count() > 0, true);
  EXPECT_EQ(b.next().count(), 60000);
}

}  // namespace
}  // namespace zh::bot
