#include "bot/chat/chat.h"

#include <cctype>
#include <cstdio>

#include "engine/util/strings.h"

namespace zh::bot {

namespace {

std::string eval_line(const EvalSummary& e) {
  if (!e.available) return "No evaluation yet.";
  char buf[160];
  if (e.mate)
    std::snprintf(buf, sizeof buf, "Eval: mate in %d", *e.mate);
  else
    std::snprintf(buf, sizeof buf, "Eval: %+.2f", e.eval_pawns);
  std::string s = buf;
  s += ", " + std::to_string(e.nodes) + " nodes, " + std::to_string(e.nps) + " nodes/s";
  if (!e.best_move_san.empty()) s += ", best " + e.best_move_san;
  return s;
}

std::string queue_line(const QueueView& q) {
  if (q.waiting == 0) return "No challenge is waiting for a free game.";
  std::string s = std::to_string(q.waiting) +
                  (q.waiting == 1 ? " challenge is" : " challenges are") +
                  " waiting for a free game.";
  if (q.place > 0) s += " Yours is number " + std::to_string(q.place) + ".";
  return s;
}

std::string cut(std::string s) {
  if (s.size() > kMaxChatLength) s.resize(kMaxChatLength);
  return s;
}

}  // namespace

std::string sanitize_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') out += c;
    if (out.size() == 30) break;
  }
  return out;
}

std::string fill_template(std::string_view text, std::string_view me, std::string_view opponent) {
  const std::string safe_me = sanitize_name(me);
  const std::string safe_opponent = sanitize_name(opponent);
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (text.substr(i, 4) == "{me}") {
      out += safe_me;
      i += 4;
    } else if (text.substr(i, 10) == "{opponent}") {
      out += safe_opponent;
      i += 10;
    } else {
      out += text[i++];
    }
  }
  return cut(out);
}

std::optional<std::string> answer_chat(const ChatLine& line, const ChatContext& context) {
  const std::string user = lower(line.username);
  if (user == lower(context.me) || user == "lichess") return std::nullopt;
  const std::string command = lower(trim(line.text));
  if (command == "!help" || command == "!commands")
    return line.room == "spectator"
               ? "Commands: !help, !name, !queue, !eval"
               : "Commands: !help, !name, !queue, !wait (!eval in the spectator room)";
  if (command == "!name") return cut(context.engine_name);
  if (command == "!queue")
    return cut(queue_line(context.queue ? context.queue(line.username) : QueueView{}));
  if (command == "!wait") {
    if (line.room != "player" || !context.wait) return std::nullopt;
    const std::optional<int> seconds = context.wait();
    if (!seconds) return std::nullopt;
    return "Waiting " + std::to_string(*seconds) + " seconds for your first move.";
  }
  if (command == "!eval") {
    if (line.room != "spectator") return std::nullopt;
    return cut(eval_line(context.eval ? context.eval() : EvalSummary{}));
  }
  return std::nullopt;
}

bool ChatRateLimiter::allow(std::string_view room) {
  const TimePoint now = clock_.now();
  auto it = last_.find(room);
  if (it != last_.end() && now - it->second < interval_) return false;
  last_[std::string(room)] = now;
  return true;
}

}  // namespace zh::bot
