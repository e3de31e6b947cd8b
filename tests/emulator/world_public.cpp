// The endpoints a BOT client reads besides the Bot API proper: token test, user status and
// public data, game export and the challenge list (lichess-api/doc/specs: tags/oauth,
// tags/users, tags/games, tags/challenges).
#include <algorithm>

#include "engine/util/strings.h"
#include "tests/emulator/json_views.h"
#include "tests/emulator/pgn.h"
#include "tests/emulator/world.h"

namespace zh::emulator {

using nlohmann::json;

namespace {

constexpr int kMaxTokens = 1000;      // per POST /api/token/test
constexpr int kMaxStatusIds = 100;    // per GET /api/users/status
constexpr int kExportDelayPlies = 3;  // ongoing games are exported 3 plies behind

}  // namespace

std::optional<PlayerInfo> World::find_user(const std::string& id) const {
  const std::string key = lower(id);
  if (key == options_.bot.id) {
    PlayerInfo me = options_.bot;
    me.title = bot_titled_ ? "BOT" : "";
    return me;
  }
  if (auto it = users_.find(key); it != users_.end()) return it->second.info;
  for (const auto& [gid, rec] : games_)
    for (const Color c : {kWhite, kBlack})
      if (rec.game->player(c).id == key) return rec.game->player(c);
  for (const auto& [cid, c] : challenges_)
    if (c.challenger.id == key) return c.challenger;
  return std::nullopt;
}

bool World::user_playing(const std::string& id) const {
  for (const auto& [gid, rec] : games_)
    if (!rec.game->finished() &&
        (rec.game->player(kWhite).id == id || rec.game->player(kBlack).id == id))
      return true;
  return false;
}

ApiReply World::token_test(const std::string& body) {
  const std::vector<std::string> tokens = split_list(body);
  if (tokens.empty()) return error(400, "No tokens given");
  if (int(tokens.size()) > kMaxTokens) return error(400, "Too many tokens (at most 1000)");
  std::lock_guard lock(mu_);
  json out = json::object();
  for (const auto& t : tokens) {
    if (std::find(options_.tokens.begin(), options_.tokens.end(), t) != options_.tokens.end())
      out[t] = {{"userId", options_.bot.id}, {"scopes", "bot:play"}, {"expires", nullptr}};
    else
      out[t] = nullptr;
  }
  return ApiReply{200, out.dump()};
}

ApiReply World::users_status(const std::string& ids, bool with_game_ids) {
  const std::vector<std::string> wanted = split_list(ids);
  if (wanted.empty()) return error(400, "ids: required");
  if (int(wanted.size()) > kMaxStatusIds)
    return error(400, "Too many ids: 101, expected up to 100");
  std::lock_guard lock(mu_);
  json out = json::array();
  for (const auto& id : wanted) {
    const auto user = find_user(id);
    if (!user) continue;  // lichess leaves unknown users out
    json j = {{"id", user->id}, {"name", user->name}};
    if (!user->title.empty()) j["title"] = user->title;
    // The bot is online while its event stream is open; simulated users always are.
    const bool online = user->id != options_.bot.id || (event_stream_ && event_stream_->open());
    if (online) j["online"] = true;  // lichess sends the flags only when true
    if (user_playing(user->id)) {
      j["playing"] = true;
      if (with_game_ids)
        for (const auto& gid : game_order_) {
          const auto& g = *games_.at(gid).game;
          if (!g.finished() && (g.player(kWhite).id == user->id || g.player(kBlack).id == user->id))
            j["playingId"] = gid;
        }
    }
    out.push_back(j);
  }
  return ApiReply{200, out.dump()};
}

ApiReply World::user_public(const std::string& username) {
  std::lock_guard lock(mu_);
  const auto user = find_user(username);
  if (!user) return not_found("Not found.");
  int games = 0;
  for (const auto& [gid, rec] : games_)
    games += rec.game->player(kWhite).id == user->id || rec.game->player(kBlack).id == user->id;
  json j = account_json(*user, games, created_at_ms_);
  if (user_playing(user->id)) j["count"]["playing"] = 1;
  return ApiReply{200, j.dump()};
}

ApiReply World::export_game(const std::string& id, bool as_json, bool pgn_in_json) {
  std::lock_guard lock(mu_);
  GameRecord* rec = find_game(id);
  if (!rec) return not_found("No such game");
  const EmuGame& g = *rec->game;
  const int hidden = g.finished() ? 0 : kExportDelayPlies;
  const std::string date = rec->end_date.empty() ? "????.??.??" : rec->end_date;
  if (!as_json) return ApiReply{200, game_pgn(g, date, hidden), "application/x-chess-pgn"};
  const std::int64_t last_move_at = rec->ply_at_ms.empty()
                                        ? g.setup().created_at_ms
                                        : epoch_ms() - (log_.elapsed_ms() - rec->ply_at_ms.back());
  json j = game_export_json(g, san_moves(g, hidden), last_move_at);
  if (pgn_in_json) j["pgn"] = game_pgn(g, date, hidden);
  return ApiReply{200, j.dump()};
}

ApiReply World::list_challenges() {
  std::lock_guard lock(mu_);
  json in = json::array(), out = json::array();
  for (const auto& [cid, c] : challenges_)
    if (c.status == "created") (c.incoming ? in : out).push_back(challenge_json(c, true));
  return ApiReply{200, json{{"in", in}, {"out", out}}.dump()};
}

}  // namespace zh::emulator
