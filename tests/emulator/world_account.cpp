// The bot's account: GET /api/account, GET /api/account/playing, POST /api/bot/account/upgrade,
// and the bots online it may challenge (GET /api/bot/online).
#include "tests/emulator/json_views.h"
#include "tests/emulator/world.h"

namespace zh::emulator {

using nlohmann::json;

ApiReply World::account() {
  std::lock_guard lock(mu_);
  PlayerInfo me = options_.bot;
  me.title = bot_titled_ ? "BOT" : "";
  return ApiReply{200, account_json(me, int(games_.size()), created_at_ms_).dump()};
}

ApiReply World::account_playing(int nb) {
  std::lock_guard lock(mu_);
  const auto now = SteadyClock::now();
  json playing = json::array();
  int my_turn = 0;
  for (const auto& id : game_order_) {
    const auto& rec = games_.at(id);
    if (rec.game->finished()) continue;
    const bool mine = rec.game->side_to_move() == rec.game->bot_color();
    my_turn += mine;
    if (int(playing.size()) >= nb) continue;
    json info = game_event_info_json(*rec.game, now);
    info["status"] = status_name(rec.game->status());  // a name here, not {id,name}
    info.erase("compat");
    playing.push_back(info);
  }
  return ApiReply{200, json{{"nbMyTurn", my_turn}, {"nowPlaying", playing}}.dump()};
}

ApiReply World::upgrade() {
  std::lock_guard lock(mu_);
  if (bot_titled_) return error(400, "This account is already a bot account");
  if (!games_.empty())
    return error(400, "This account has already played games and cannot become a bot");
  bot_titled_ = true;
  return ApiReply{};
}

std::vector<std::string> World::online_bot_lines(int nb) {
  std::lock_guard lock(mu_);
  std::vector<std::string> out;
  for (const auto& [id, u] : users_)
    if (u.online_bot && int(out.size()) < nb) out.push_back(online_bot_json(u.info).dump());
  return out;
}

}  // namespace zh::emulator
