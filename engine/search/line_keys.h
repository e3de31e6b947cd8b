#pragma once
// The positions a mate search must not return to: those of the game and the tree path before
// its root (`earlier`, most recent last) and those of its own current line. A repetition is a
// draw, never a mate; the searches ask here whether a position would be one. A 4096-bit filter
// over the earlier keys keeps the common answer (no) to one memory read.

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace zh {

class LineKeys {
 public:
  // Starts a search from the position `root_key` after the positions `earlier`.
  void reset(std::uint64_t root_key, std::span<const std::uint64_t> earlier) {
    earlier_ = earlier;
    std::fill(std::begin(filter_), std::end(filter_), 0);
    for (std::uint64_t k : earlier) filter_[bit(k) / 64] |= std::uint64_t(1) << (bit(k) % 64);
    line_.assign(1, root_key);
    hit_earlier_ = false;
  }
  void push(std::uint64_t key) { line_.push_back(key); }
  void pop() { line_.pop_back(); }
  // Plies from the search's root to the current position.
  int ply() const { return int(line_.size()) - 1; }

  // Whether `key` repeats a position of the current line or an earlier one.
  bool repeats(std::uint64_t key) {
    if (std::find(line_.begin(), line_.end(), key) != line_.end()) return true;
    if (!(filter_[bit(key) / 64] & (std::uint64_t(1) << (bit(key) % 64)))) return false;
    if (std::find(earlier_.begin(), earlier_.end(), key) == earlier_.end()) return false;
    hit_earlier_ = true;
    return true;
  }
  // Whether a repetition of an earlier position cut a line since reset(): an answer that
  // depends on how the root was reached.
  bool hit_earlier() const { return hit_earlier_; }

 private:
  static int bit(std::uint64_t key) { return int(key >> 52); }
  std::span<const std::uint64_t> earlier_;
  std::uint64_t filter_[64] = {};
  std::vector<std::uint64_t> line_;
  bool hit_earlier_ = false;
};

}  // namespace zh
