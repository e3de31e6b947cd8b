#include "bot/game/session_chat.h"

namespace zh::bot {

SessionChat::SessionChat(std::string game_id, const BotConfig& config, LichessClient& client,
                         Clock& clock, ChatContext context, std::shared_ptr<spdlog::logger> log)
    : game_id_(std::move(game_id)),
      config_(config),
      client_(client),
      limiter_(clock, Millis(config.chat_min_interval_ms)),
      context_(std::move(context)),
      log_(std::move(log)) {}

void SessionChat::greet() {
  announce(config_.chat.greeting, config_.chat.greeting_spectators, greeted_);
}

void SessionChat::goodbye() {
  announce(config_.chat.goodbye, config_.chat.goodbye_spectators, said_goodbye_);
}

void SessionChat::announce(const std::string& player, const std::string& spectators, bool& done) {
  if (done) return;
  done = true;
  say(ChatRoom::kPlayer, fill_template(player, context_.me, opponent_), false);
  say(ChatRoom::kSpectator, fill_template(spectators, context_.me, opponent_), false);
}

void SessionChat::on_chat(const ChatLine& line) {
  if (!config_.chat_commands) return;
  if (auto reply = answer_chat(line, context_))
    say(line.room == "spectator" ? ChatRoom::kSpectator : ChatRoom::kPlayer, *reply, true);
}

void SessionChat::say(ChatRoom room, const std::string& text, bool rate_limited) {
  if (text.empty()) return;
  const char* room_name = room == ChatRoom::kPlayer ? "player" : "spectator";
  if (!limiter_.allow(room_name) && rate_limited) return;
  const ApiResult r = client_.chat(game_id_, room, text);
  if (!r.ok()) log_->warn("chat to {} failed: {}", room_name, r.error);
}

}  // namespace zh::bot
