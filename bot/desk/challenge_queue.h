#pragma once
// Acceptable challenges waiting for a free game slot, at most `capacity`, handed out in the
// configured order (challenge.queue_order). Not thread-safe: the challenge desk's lock guards
// it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bot/challenge_policy/challenge_policy.h"
#include "engine/util/clock.h"

namespace zh::bot {

class ChallengeQueue {
 public:
  struct Entry {
    Challenge challenge;
    TimePoint arrived;
    std::uint64_t seq = 0;  // arrival order
  };

  ChallengeQueue(int capacity, QueueOrder order) : capacity_(capacity), order_(order) {}

  bool full() const { return int(entries_.size()) >= capacity_; }
  bool empty() const { return entries_.empty(); }
  int size() const { return int(entries_.size()); }
  bool contains(const std::string& id) const;
  int with_challenger(const std::string& challenger_id) const;  // lower-case id

  // False when full (or already queued).
  bool push(const Challenge& c, TimePoint now);
  bool remove(const std::string& id);
  // The entries, best first in the configured order.
  std::vector<Entry> ordered() const;

 private:
  int capacity_;
  QueueOrder order_;
  std::uint64_t next_seq_ = 0;
  std::vector<Entry> entries_;
};

}  // namespace zh::bot
