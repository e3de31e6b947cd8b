#pragma once
// One game's chat: the greetings of a fresh game, the goodbyes of a finished one, and the
// answers to chat commands (rate limited per room; the greetings and goodbyes are not).

#include <spdlog/spdlog.h>

#include <functional>
#include <memory>
#include <string>

#include "bot/chat/chat.h"
#include "bot/config/bot_config.h"
#include "bot/lichess/lichess_client.h"

namespace zh::bot {

class SessionChat {
 public:
  SessionChat(std::string game_id, const BotConfig& config, LichessClient& client, Clock& clock,
              ChatContext context, std::shared_ptr<spdlog::logger> log);

  void set_opponent(std::string name) { opponent_ = std::move(name); }
  void greet();    // once per game
  void goodbye();  // once per game
  void on_chat(const ChatLine& line);

 private:
  // Both rooms' lines of a greeting or goodbye, once (`done` marks it said); not rate limited.
  void announce(const std::string& player, const std::string& spectators, bool& done);
  void say(ChatRoom room, const std::string& text, bool rate_limited);

  std::string game_id_;
  const BotConfig& config_;
  LichessClient& client_;
  ChatRateLimiter limiter_;
  ChatContext context_;
  std::shared_ptr<spdlog::logger> log_;
  std::string opponent_;
  bool greeted_ = false;
  bool said_goodbye_ = false;
};

}  // namespace zh::bot
