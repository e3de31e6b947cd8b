#pragma once
// Ids already handled, bounded: the event stream replays pending challenges and ongoing games
// on every reconnect, and each must be handled once.

#include <cstddef>
#include <deque>
#include <string>
#include <unordered_set>

namespace zh::bot {

class SeenIds {
 public:
  explicit SeenIds(std::size_t capacity = 4096) : capacity_(capacity) {}

  // True when `id` is new (and remembers it); false when it was seen before.
  bool insert(const std::string& id) {
    if (set_.count(id)) return false;
    set_.insert(id);
    order_.push_back(id);
    if (order_.size() > capacity_) {
      set_.erase(order_.front());
      order_.pop_front();
    }
    return true;
  }
  bool contains(const std::string& id) const { return set_.count(id) != 0; }
  // Lets `id` be handled again (its entry in the age order stays and ages out harmlessly).
  void forget(const std::string& id) { set_.erase(id); }

 private:
  std::size_t capacity_;
  std::unordered_set<std::string> set_;
  std::deque<std::string> order_;
};

}  // namespace zh::bot
