// The admin side of the World: scenarios (simulated users and their challenges), opponent
// actions, and read-outs of games, PGNs and counters for assertions.
#include <cctype>
#include <stdexcept>

#include "tests/emulator/json_views.h"
#include "tests/emulator/pgn.h"
#include "tests/emulator/world.h"

namespace zh::emulator {
namespace {

using nlohmann::json;

PlayerInfo player_from_json(const json& j, const std::string& fallback_name) {
  PlayerInfo p;
  if (!j.is_null() && !j.is_object()) throw std::invalid_argument("user must be a JSON object");
  p.name = j.is_object() ? j.value("name", fallback_name) : fallback_name;
  if (p.name.empty()) throw std::invalid_argument("user.name must not be empty");
  for (char c : p.name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-')
      throw std::invalid_argument("user.name may only hold letters, digits, _ and -");
  p.id = p.name;
  for (char& c : p.id) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (j.is_object()) {
    if (j.contains("title") && !j.at("title").is_null()) p.title = j.at("title");
    p.rating = j.value("rating", p.rating);
    p.provisional = j.value("provisional", false);
  }
  return p;
}

}  // namespace

json World::admin_add_user(const json& spec) {
  SimUser u;
  u.info = player_from_json(spec, "opponent");
  u.online_bot = spec.value("online_bot", u.info.title == "BOT");
  u.decline_reason = spec.value("decline_reason", std::string());
  u.ignores = spec.value("ignores", false);
  u.refuses = spec.value("refuses", std::string());
  u.refuses_seconds = spec.value("refuses_seconds", 0);
  if (spec.contains("opponent")) u.opponent = opponent_from_json(spec.at("opponent"));
  std::lock_guard lock(mu_);
  if (u.info.id == options_.bot.id) throw std::invalid_argument("that name is the bot's own");
  const json out = {{"id", u.info.id},
                    {"name", u.info.name},
                    {"title", u.info.title},
                    {"rating", u.info.rating},
                    {"online_bot", u.online_bot}};
  users_[u.info.id] = std::move(u);
  return out;
}

json World::admin_create_challenge(const json& spec) {
  if (!spec.is_object()) throw std::invalid_argument("the challenge must be a JSON object");
  Challenge c;
  c.challenger = player_from_json(spec.value("user", json()), "human");
  c.incoming = true;
  c.variant = spec.value("variant", std::string("crazyhouse"));
  if (variant_json(c.variant)["key"] != c.variant)
    throw std::invalid_argument("unknown variant '" + c.variant + "'");
  c.has_clock = !spec.value("unlimited", false) && spec.value("days", 0) == 0;
  c.days = spec.value("days", 0);
  c.limit_s = spec.value("limit_s", 180);
  c.increment_s = spec.value("increment_s", 2);
  if (c.has_clock && (c.limit_s < 0 || c.increment_s < 0 || c.limit_s + c.increment_s == 0))
    throw std::invalid_argument("limit_s and increment_s must be >= 0 and not both 0");
  if (c.has_clock && speed_of(true, c.limit_s, c.increment_s, 0) == "ultraBullet")
    throw std::invalid_argument("Bots cannot play UltraBullet. Choose a slower time control.");
  c.initial_ms_override = spec.value("initial_ms", Millis{0});
  c.rated = spec.value("rated", false);
  c.color = spec.value("color", std::string("random"));
  if (c.color != "white" && c.color != "black" && c.color != "random")
    throw std::invalid_argument("color must be white, black or random");
  c.opponent = spec.contains("opponent") ? opponent_from_json(spec.at("opponent")) : OpponentSpec{};
  std::lock_guard lock(mu_);
  if (c.challenger.id == options_.bot.id) throw std::invalid_argument("that name is the bot's own");
  c.id = new_id();
  c.dest = options_.bot;
  c.dest.title = bot_titled_ ? "BOT" : "";
  c.final_color = c.color == "white"   ? kWhite
                  : c.color == "black" ? kBlack
                                       : (rng_() & 1 ? kWhite : kBlack);
  c.created = SteadyClock::now();
  c.created_epoch_ms = epoch_ms();
  emit_event(challenge_event_json(c, "challenge"));
  json out = challenge_json(c, true);
  challenges_[c.id] = std::move(c);
  return out;
}

void World::issue_startup_challenges() {
  {
    std::lock_guard lock(mu_);
    if (startup_challenges_issued_) return;
    startup_challenges_issued_ = true;
  }
  for (const auto& spec : options_.startup_challenges) admin_create_challenge(spec);
}

std::optional<json> World::admin_challenge(const std::string& id) {
  std::lock_guard lock(mu_);
  auto it = challenges_.find(id);
  if (it == challenges_.end()) return std::nullopt;
  json out = challenge_json(it->second, true);
  out["opponent"] = opponent_to_json(it->second.opponent);
  if (games_.count(id)) out["gameId"] = id;
  return out;
}

ApiReply World::admin_cancel_challenge(const std::string& id) {
  std::lock_guard lock(mu_);
  auto it = challenges_.find(id);
  if (it == challenges_.end() || it->second.status != "created" || !it->second.incoming)
    return not_found();
  it->second.status = "canceled";
  emit_event(challenge_event_json(it->second, "challengeCanceled"));
  return ApiReply{};
}

json World::admin_games() {
  std::lock_guard lock(mu_);
  json out = json::array();
  for (const auto& id : game_order_) {
    const EmuGame& g = *games_.at(id).game;
    json row = {{"id", id}, {"status", status_name(g.status())}, {"plies", g.plies()}};
    if (g.winner()) row["winner"] = *g.winner() == kWhite ? "white" : "black";
    out.push_back(row);
  }
  return out;
}

std::optional<json> World::admin_game(const std::string& id) {
  std::lock_guard lock(mu_);
  GameRecord* rec = find_game(id);
  if (!rec) return std::nullopt;
  const EmuGame& g = *rec->game;
  const auto now = SteadyClock::now();
  json chat = json::array();
  for (const auto& l : g.chat())
    chat.push_back({{"user", l.user}, {"text", l.text}, {"room", l.room}});
  json out = {{"id", id},
              {"status", status_name(g.status())},
              {"moves", g.moves_text()},
              {"plies", g.plies()},
              {"fen", g.rules().position().fen()},
              {"bot_color", g.bot_color() == kWhite ? "white" : "black"},
              {"white", g.player(kWhite).name},
              {"black", g.player(kBlack).name},
              {"wtime", g.remaining(kWhite, now)},
              {"btime", g.remaining(kBlack, now)},
              {"speed", g.setup().speed},
              {"rated", g.setup().rated},
              {"opponent_gone", g.gone(~g.bot_color())},
              {"stream_opens", rec->stream_opens},
              {"bot_moves", rec->bot_moves},
              {"rejected_moves", rec->rejected_moves},
              {"duplicate_moves", rec->duplicate_moves},
              {"ply_at_ms", rec->ply_at_ms},
              {"chat", chat},
              {"opponent", opponent_to_json(rec->opponent)}};
  out["winner"] = g.winner() ? json(*g.winner() == kWhite ? "white" : "black") : json(nullptr);
  out["result"] = result_text(g);
  return out;
}

std::optional<std::string> World::admin_pgn(const std::string& id) {
  std::lock_guard lock(mu_);
  GameRecord* rec = find_game(id);
  if (!rec) return std::nullopt;
  return game_pgn(*rec->game, rec->end_date.empty() ? "????.??.??" : rec->end_date);
}

ApiReply World::admin_opponent_action(const std::string& id, const json& action) {
  std::lock_guard lock(mu_);
  GameRecord* rec = find_game(id);
  if (!rec) return not_found("No such game");
  if (rec->game->finished()) return error(400, "The game is over");
  if (!action.is_object()) return error(400, "the action must be a JSON object");
  return opponent_act(*rec, action, SteadyClock::now());
}

json World::stats() {
  std::lock_guard lock(mu_);
  json by_status = json::object();
  int finished = 0, bot_moves = 0, rejected = 0, duplicates = 0, stream_opens = 0;
  int bot_lost_on_time = 0;
  for (const auto& [id, rec] : games_) {
    const EmuGame& g = *rec.game;
    by_status[std::string(status_name(g.status()))] =
        by_status.value(std::string(status_name(g.status())), 0) + 1;
    finished += g.finished();
    bot_moves += rec.bot_moves;
    rejected += rec.rejected_moves;
    duplicates += rec.duplicate_moves;
    stream_opens += rec.stream_opens;
    bot_lost_on_time +=
        g.status() == GameStatus::kOutOfTime && g.winner() && *g.winner() != g.bot_color();
  }
  int pending = 0;
  for (const auto& [id, c] : challenges_) pending += c.status == "created";
  return {{"games", games_.size()},
          {"games_finished", finished},
          {"games_by_status", by_status},
          {"bot_lost_on_time", bot_lost_on_time},
          {"bot_moves", bot_moves},
          {"rejected_moves", rejected},
          {"duplicate_moves", duplicates},
          {"game_stream_opens", stream_opens},
          {"event_stream_opens", event_stream_opens_},
          {"event_stream_connected", event_stream_ && event_stream_->open()},
          {"challenges", challenges_.size()},
          {"challenges_pending", pending},
          {"bot_games_started", bot_games_started_},
          {"opponent_threads", drivers_.size()}};
}

}  // namespace zh::emulator
