// What the bot does in a game: POST /api/bot/game/{id}/move/{uci}, chat (GET and POST), abort,
// resign, draw/{yes|no}, takeback/{yes|no}, claim-victory and claim-draw.
#include "engine/chess/notation.h"
#include "tests/emulator/json_views.h"
#include "tests/emulator/world.h"

namespace zh::emulator {

using nlohmann::json;

ApiReply World::move(const std::string& id, const std::string& uci,
                     std::optional<bool> offering_draw) {
  std::lock_guard lock(mu_);
  GameRecord* rec = nullptr;
  if (auto r = bot_game_or_error(id, rec); r.status != 200) return r;
  EmuGame& g = *rec->game;
  const auto now = SteadyClock::now();
  const Color me = g.bot_color();
  const bool was_finished = g.finished();
  // The bot's own latest move, in both castling forms, to recognise a re-sent move.
  std::string last_mine[2];
  const auto& played = g.rules().moves();
  const int back = g.side_to_move() == me ? 2 : 1;
  if (int(played.size()) >= back) {
    const Move m = played[played.size() - std::size_t(back)];
    last_mine[0] = to_uci(m, CastlingNotation::kKingToRook);
    last_mine[1] = to_uci(m, CastlingNotation::kKingTwoSquares);
  }
  if (auto refused = g.play(me, uci, now)) {
    ++rec->rejected_moves;
    if (!last_mine[0].empty() && (uci == last_mine[0] || uci == last_mine[1]))
      ++rec->duplicate_moves;
    if (!was_finished && g.finished()) changed(*rec, now);  // the flag fell first
    return error(400, *refused);
  }
  ++rec->bot_moves;
  rec->ply_at_ms.push_back(log_.elapsed_ms());
  if (offering_draw.has_value() && !g.finished()) g.draw(me, *offering_draw, now);
  changed(*rec, now);
  return ApiReply{};
}

ApiReply World::chat_post(const std::string& id, const std::string& room, const std::string& text) {
  std::lock_guard lock(mu_);
  GameRecord* rec = nullptr;
  if (auto r = bot_game_or_error(id, rec); r.status != 200) return r;
  if (room != "player" && room != "spectator")
    return error(400, "room must be player or spectator");
  if (text.empty() || text.size() > 140) return error(400, "text must be 1 to 140 characters");
  ChatLine line{options_.bot.name, text, room};
  rec->game->add_chat(line);
  emit_game(*rec, chat_line_json(line));  // lichess echoes the bot's own lines
  return ApiReply{};
}

ApiReply World::chat_get(const std::string& id) {
  std::lock_guard lock(mu_);
  GameRecord* rec = nullptr;
  if (auto r = bot_game_or_error(id, rec); r.status != 200) return r;
  json out = json::array();
  for (const auto& line : rec->game->chat())
    if (line.room == "player") out.push_back({{"text", line.text}, {"user", line.user}});
  return ApiReply{200, out.dump()};
}

ApiReply World::bot_game_action(const std::string& id, const BotAction& act) {
  std::lock_guard lock(mu_);
  GameRecord* rec = nullptr;
  if (auto r = bot_game_or_error(id, rec); r.status != 200) return r;
  const auto now = SteadyClock::now();
  const BotActionResult result = act(*rec->game, rec->game->bot_color(), now);
  if (result.refused) return error(400, *result.refused);
  if (result.changed) changed(*rec, now);
  return ApiReply{};
}

ApiReply World::abort(const std::string& id) {
  return bot_game_action(
      id, [](EmuGame& g, Color me, SteadyTime now) { return BotActionResult{g.abort(me, now)}; });
}

ApiReply World::resign(const std::string& id) {
  return bot_game_action(
      id, [](EmuGame& g, Color me, SteadyTime now) { return BotActionResult{g.resign(me, now)}; });
}

ApiReply World::claim_victory(const std::string& id) {
  return bot_game_action(id, [](EmuGame& g, Color me, SteadyTime now) {
    return BotActionResult{g.claim_victory(me, now)};
  });
}

ApiReply World::claim_draw(const std::string& id) {
  return bot_game_action(id, [](EmuGame& g, Color me, SteadyTime now) {
    return BotActionResult{g.claim_draw(me, now)};
  });
}

// Offers and answers: never refused, a change only when the offer did something.
ApiReply World::draw(const std::string& id, bool yes) {
  return bot_game_action(id, [yes](EmuGame& g, Color me, SteadyTime now) {
    return BotActionResult{std::nullopt, g.draw(me, yes, now)};
  });
}

ApiReply World::takeback(const std::string& id, bool yes) {
  return bot_game_action(id, [yes](EmuGame& g, Color me, SteadyTime now) {
    return BotActionResult{std::nullopt, g.takeback(me, yes, now)};
  });
}

}  // namespace zh::emulator
