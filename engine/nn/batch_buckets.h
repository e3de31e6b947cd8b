#pragma once
// Batch-size buckets for a GPU backend. TorchScript (and cuDNN's algorithm choice) specialise on
// each input shape they meet, which costs a pause the first time: a search that sent every batch
// size from 1 to max_batch would meet that pause mid-game. So on a GPU every batch is padded up
// to a bucket (powers of two below max_batch, and max_batch itself) and every bucket is run once
// at load. Padding costs little there: a GPU's time per batch grows slowly with its size.

#include <vector>

namespace zh {

// 1, 2, 4, ... below max_batch, then max_batch (max_batch >= 1).
std::vector<int> batch_buckets(int max_batch);

// The smallest bucket that holds n positions; n itself when none does (a caller that bypasses
// the service's max_batch). `buckets` ascending, as batch_buckets() makes them.
int bucket_for(int n, const std::vector<int>& buckets);

}  // namespace zh
