#include "engine/nn/batch_buckets.h"

#include <algorithm>
#include <stdexcept>

namespace zh {

std::vector<int> batch_buckets(int max_batch) {
  if (max_batch < 1) throw std::invalid_argument("batch buckets: max_batch must be >= 1");
  std::vector<int> out;
  for (int b = 1; b < max_batch; b *= 2) out.push_back(b);
  out.push_back(max_batch);
  return out;
}

int bucket_for(int n, const std::vector<int>& buckets) {
  const auto it = std::lower_bound(buckets.begin(), buckets.end(), n);
  return it == buckets.end() ? n : *it;
}

}  // namespace zh
