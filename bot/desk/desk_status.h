#pragma once
// The challenge desk as the status page shows it: challenges in words and numbers.

#include <string>
#include <vector>

#include "bot/desk/challenge_queue.h"
#include "bot/lichess/events.h"
#include "bot/status/status_model.h"

namespace zh::bot {

// "180+2", "3 days", "unlimited".
std::string time_control_text(const TimeControl& tc);
StatusPlayer challenger_view(const ChallengeUser& user);
// The queue's entries (best first) with their arrival on the wall clock.
std::vector<QueuedChallenge> queue_view(const std::vector<ChallengeQueue::Entry>& entries,
                                        TimePoint now, std::int64_t now_unix_ms);
DeclinedChallenge declined_view(const Challenge& c, const std::string& reason,
                                const std::string& why);

}  // namespace zh::bot
