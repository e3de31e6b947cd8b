#pragma once
// Game chat: greeting and goodbye templates, the !help / !name / !queue / !wait / !eval commands,
// and a rate limit per room. Chat text from the network is untrusted: it is never echoed back, and
// names put into templates are reduced to the characters lichess user names can have.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "bot/lichess/events.h"
#include "engine/util/clock.h"

namespace zh::bot {

inline constexpr std::size_t kMaxChatLength = 140;  // lichess refuses longer lines

// Letters, digits, '_' and '-' only, at most 30 characters: a lichess user name.
std::string sanitize_name(std::string_view name);

// Replaces {me} and {opponent}; the result is cut to kMaxChatLength.
std::string fill_template(std::string_view text, std::string_view me, std::string_view opponent);

// What !eval reports: filled in by the game session from the last search.
struct EvalSummary {
  bool available = false;
  double eval_pawns = 0;    // our point of view
  std::optional<int> mate;  // moves to mate, our point of view
  long long nodes = 0;
  long long nps = 0;
  std::string best_move_san;  // may be empty
};

// What !queue reports: the challenges waiting for a free game slot, and the asker's place.
struct QueueView {
  int waiting = 0;
  int place = 0;  // 1 = next; 0: the asker has no challenge waiting
};

struct ChatContext {
  std::string me;                     // our user name
  std::string engine_name;            // e.g. "zhbot 0.1.0 (MCTS, evaluator torch)"
  std::function<EvalSummary()> eval;  // asked only for !eval
  // Asked only for !queue, with the asker's user name; absent: no queue to tell of.
  std::function<QueueView(const std::string& user)> queue;
  // Asked only for !wait in the player room (the opponent asks for time before its first
  // move): the seconds left before the abort after granting it, or nothing when the game is
  // past that point or no more time is given. Absent: !wait gets no answer.
  std::function<std::optional<int>()> wait;
};

// The reply to a chat line, if any. Only exact commands get a reply; !eval only in the
// spectator room (the opponent must not get engine output), !wait only in the player room
// (spectators cannot hold a game open); our own lines and lichess system lines are ignored.
std::optional<std::string> answer_chat(const ChatLine& line, const ChatContext& context);

// At most one message per room per interval.
class ChatRateLimiter {
 public:
  ChatRateLimiter(Clock& clock, Millis interval) : clock_(clock), interval_(interval) {}
  bool allow(std::string_view room);

 private:
  Clock& clock_;
  Millis interval_;
  std::map<std::string, TimePoint, std::less<>> last_;
};

}  // namespace zh::bot
