#pragma once
// How many challenges each bot sent within a sliding window, for the anti-spam filter
// (challenge.max_recent_bot_challenges). Not thread-safe: the challenge desk's lock guards it.

#include <deque>
#include <map>
#include <string>

#include "engine/util/clock.h"

namespace zh::bot {

class RecentChallenges {
 public:
  explicit RecentChallenges(Millis window) : window_(window) {}

  void add(const std::string& user_id, TimePoint now) {
    prune(now);
    times_[user_id].push_back(now);
  }
  int count(const std::string& user_id, TimePoint now) {
    prune(now);
    const auto it = times_.find(user_id);
    return it == times_.end() ? 0 : int(it->second.size());
  }

 private:
  void prune(TimePoint now) {
    for (auto it = times_.begin(); it != times_.end();) {
      while (!it->second.empty() && now - it->second.front() > window_) it->second.pop_front();
      it = it->second.empty() ? times_.erase(it) : std::next(it);
    }
  }

  Millis window_;
  std::map<std::string, std::deque<TimePoint>> times_;
};

}  // namespace zh::bot
