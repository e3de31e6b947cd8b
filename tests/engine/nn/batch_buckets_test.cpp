#include "engine/nn/batch_buckets.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace zh {
namespace {

TEST(BatchBuckets, PowersOfTwoThenTheMaximum) {
  EXPECT_EQ(batch_buckets(1), (std::vector<int>{1}));
  EXPECT_EQ(batch_buckets(16), (std::vector<int>{1, 2, 4, 8, 16}));
  EXPECT_EQ(batch_buckets(48), (std::vector<int>{1, 2, 4, 8, 16, 32, 48}));
  EXPECT_THROW(batch_buckets(0), std::invalid_argument);
}

TEST(BatchBuckets, EachBatchGoesToTheSmallestBucketThatHoldsIt) {
  const std::vector<int> b = batch_buckets(48);
  EXPECT_EQ(bucket_for(1, b), 1);
  EXPECT_EQ(bucket_for(3, b), 4);
  EXPECT_EQ(bucket_for(16, b), 16);
  EXPECT_EQ(bucket_for(33, b), 48);
  EXPECT_EQ(bucket_for(48, b), 48);
  EXPECT_EQ(bucket_for(60, b), 60) << "larger than every bucket: run as it is";
}

}  // namespace
}  // namespace zh
