#include "bot/desk/challenge_queue.h"

#include <algorithm>
#include <tuple>

#include "engine/util/strings.h"

namespace zh::bot {

bool ChallengeQueue::contains(const std::string& id) const {
  return std::any_of(entries_.begin(), entries_.end(),
                     [&](const Entry& e) { return e.challenge.id == id; });
}

int ChallengeQueue::with_challenger(const std::string& challenger_id) const {
  return int(std::count_if(entries_.begin(), entries_.end(), [&](const Entry& e) {
    return lower(e.challenge.challenger.id) == challenger_id;
  }));
}

bool ChallengeQueue::push(const Challenge& c, TimePoint now) {
  if (full() || contains(c.id)) return false;
  entries_.push_back(Entry{c, now, next_seq_++});
  return true;
}

bool ChallengeQueue::remove(const std::string& id) {
  return std::erase_if(entries_, [&](const Entry& e) { return e.challenge.id == id; }) > 0;
}

std::vector<ChallengeQueue::Entry> ChallengeQueue::ordered() const {
  std::vector<Entry> out = entries_;
  // Smaller key first; every key ends with the arrival order, so ties go to the earlier one.
  auto key = [this](const Entry& e) {
    const ChallengeUser& u = e.challenge.challenger;
    switch (order_) {
      case QueueOrder::kRating:
        return std::make_tuple(-u.rating.value_or(-1), e.seq);
      case QueueOrder::kHumansFirst:
        return std::make_tuple(u.is_bot() ? 1 : 0, e.seq);
      case QueueOrder::kFirst:
        break;
    }
    return std::make_tuple(0, e.seq);
  };
  std::sort(out.begin(), out.end(),
            [&](const Entry& a, const Entry& b) { return key(a) < key(b); });
  return out;
}

}  // namespace zh::bot
