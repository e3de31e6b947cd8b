#include "bot/lichess/events.h"

#include <limits>
#include <nlohmann/json.hpp>

#include "engine/util/strings.h"

namespace zh::bot {

namespace {

using nlohmann::json;

std::string str(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool boolean(const json& j, const char* key, bool fallback = false) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

// A number that does not fit is treated as absent: converting it would be undefined (a float
// beyond the int64 range, found by fuzzing) or would wrap into nonsense.
std::optional<std::int64_t> int64(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  if (it->is_number_unsigned() &&
      it->get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
    return std::nullopt;
  if (it->is_number_float()) {
    const double d = it->get<double>();
    // 2^63 is exactly representable; every double below it (and >= -2^63) converts.
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return std::nullopt;
    return std::int64_t(d);
  }
  return it->get<std::int64_t>();
}

std::optional<int> integer(const json& j, const char* key) {
  auto v = int64(j, key);
  if (!v || *v < std::numeric_limits<int>::min() || *v > std::numeric_limits<int>::max())
    return std::nullopt;
  return int(*v);
}

const json& object(const json& j, const char* key) {
  static const json kEmpty = json::object();
  auto it = j.find(key);
  return it != j.end() && it->is_object() ? *it : kEmpty;
}

// Status may be a plain name (game stream) or {id, name} (event stream).
std::string status_name(const json& j) {
  auto it = j.find("status");
  if (it == j.end()) return {};
  if (it->is_string()) return it->get<std::string>();
  if (it->is_object()) return str(*it, "name");
  return {};
}

Opponent parse_opponent(const json& j) {
  Opponent o;
  o.id = str(j, "id");
  o.username = str(j, "username");
  o.rating = integer(j, "rating");
  o.ai_level = integer(j, "ai");
  return o;
}

GameInfo parse_game_info(const json& j) {
  GameInfo g;
  g.game_id = str(j, "gameId");
  if (g.game_id.empty()) g.game_id = str(j, "id");
  g.full_id = str(j, "fullId");
  if (g.game_id.empty()) throw std::invalid_argument("game without gameId");
  g.color = str(j, "color");
  g.fen = str(j, "fen");
  g.last_move = str(j, "lastMove");
  g.source = str(j, "source");
  g.status = status_name(j);
  g.variant = str(object(j, "variant"), "key");
  g.speed = str(j, "speed");
  g.rated = boolean(j, "rated");
  g.is_my_turn = boolean(j, "isMyTurn");
  g.compat_bot = boolean(object(j, "compat"), "bot", true);
  g.opponent = parse_opponent(object(j, "opponent"));
  g.seconds_left = integer(j, "secondsLeft");
  g.winner = str(j, "winner");
  g.rating_diff = integer(j, "ratingDiff");
  return g;
}

ChallengeUser parse_challenge_user(const json& j) {
  ChallengeUser u;
  u.id = str(j, "id");
  u.name = str(j, "name");
  u.rating = integer(j, "rating");
  u.title = str(j, "title");
  u.provisional = boolean(j, "provisional");
  u.online = boolean(j, "online");
  return u;
}

Challenge parse_challenge(const json& j, const json& wrapper) {
  Challenge c;
  c.id = str(j, "id");
  if (c.id.empty()) throw std::invalid_argument("challenge without id");
  c.url = str(j, "url");
  c.status = str(j, "status");
  c.challenger = parse_challenge_user(object(j, "challenger"));
  if (auto it = j.find("destUser"); it != j.end() && it->is_object())
    c.dest_user = parse_challenge_user(*it);
  c.variant = str(object(j, "variant"), "key");
  c.rated = boolean(j, "rated");
  c.speed = str(j, "speed");
  const json& tc = object(j, "timeControl");
  c.time_control.type = str(tc, "type");
  c.time_control.limit_s = integer(tc, "limit").value_or(0);
  c.time_control.increment_s = integer(tc, "increment").value_or(0);
  c.time_control.days_per_turn = integer(tc, "daysPerTurn").value_or(0);
  c.color = str(j, "color");
  c.rematch_of = str(j, "rematchOf");
  c.decline_reason_key = str(j, "declineReasonKey");
  if (auto it = wrapper.find("compat"); it != wrapper.end() && it->is_object())
    c.compat_bot = boolean(*it, "bot", true);
  return c;
}

GameState parse_game_state(const json& j) {
  GameState s;
  auto moves = j.find("moves");
  if (moves == j.end() || !moves->is_string())
    throw std::invalid_argument("gameState without moves");
  s.moves = moves->get<std::string>();
  s.wtime_ms = int64(j, "wtime").value_or(0);
  s.btime_ms = int64(j, "btime").value_or(0);
  s.winc_ms = int64(j, "winc").value_or(0);
  s.binc_ms = int64(j, "binc").value_or(0);
  s.status = status_name(j);
  if (s.status.empty()) throw std::invalid_argument("gameState without status");
  s.winner = str(j, "winner");
  s.wdraw = boolean(j, "wdraw");
  s.bdraw = boolean(j, "bdraw");
  s.wtakeback = boolean(j, "wtakeback");
  s.btakeback = boolean(j, "btakeback");
  return s;
}

GamePlayer parse_game_player(const json& j) {
  GamePlayer p;
  p.id = str(j, "id");
  p.name = str(j, "name");
  p.title = str(j, "title");  // null for untitled players
  p.rating = integer(j, "rating");
  p.ai_level = integer(j, "aiLevel");
  p.provisional = boolean(j, "provisional");
  return p;
}

GameFull parse_game_full(const json& j) {
  GameFull g;
  g.id = str(j, "id");
  if (g.id.empty()) throw std::invalid_argument("gameFull without id");
  g.variant = str(object(j, "variant"), "key");
  g.speed = str(j, "speed");
  g.rated = boolean(j, "rated");
  g.created_at_ms = int64(j, "createdAt").value_or(0);
  if (auto it = j.find("clock"); it != j.end() && it->is_object()) {
    g.clock_initial_ms = int64(*it, "initial");
    g.clock_increment_ms = int64(*it, "increment");
  }
  g.white = parse_game_player(object(j, "white"));
  g.black = parse_game_player(object(j, "black"));
  g.initial_fen = str(j, "initialFen");
  if (g.initial_fen.empty()) g.initial_fen = "startpos";
  auto state = j.find("state");
  if (state == j.end() || !state->is_object())
    throw std::invalid_argument("gameFull without state");
  g.state = parse_game_state(*state);
  return g;
}

template <typename Fn>
auto guarded(std::string_view line, std::string& error, Fn&& fn) -> decltype(fn(json())) {
  json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    error = "malformed JSON line";
    return std::nullopt;
  }
  try {
    return fn(j);
  } catch (const std::exception& e) {
    // type_error from nlohmann (a field of the wrong type) or our own invalid_argument.
    error = e.what();
    return std::nullopt;
  }
}

}  // namespace

std::vector<std::string> GameState::move_list() const { return split_words(moves); }

std::optional<Event> parse_event(std::string_view line, std::string& error) {
  return guarded(line, error, [&](const json& j) -> std::optional<Event> {
    const std::string type = str(j, "type");
    if (type == "gameStart") return GameStartEvent{parse_game_info(object(j, "game"))};
    if (type == "gameFinish") return GameFinishEvent{parse_game_info(object(j, "game"))};
    if (type == "challenge") return ChallengeEvent{parse_challenge(object(j, "challenge"), j)};
    if (type == "challengeCanceled")
      return ChallengeCanceledEvent{parse_challenge(object(j, "challenge"), j)};
    if (type == "challengeDeclined")
      return ChallengeDeclinedEvent{parse_challenge(object(j, "challenge"), j)};
    error = "unknown event type '" + type.substr(0, 40) + "'";
    return std::nullopt;
  });
}

std::optional<GameEvent> parse_game_event(std::string_view line, std::string& error) {
  return guarded(line, error, [&](const json& j) -> std::optional<GameEvent> {
    const std::string type = str(j, "type");
    if (type == "gameFull") return parse_game_full(j);
    if (type == "gameState") return parse_game_state(j);
    if (type == "chatLine") return ChatLine{str(j, "username"), str(j, "text"), str(j, "room")};
    if (type == "opponentGone")
      return OpponentGone{boolean(j, "gone"), integer(j, "claimWinInSeconds")};
    error = "unknown game event type '" + type.substr(0, 40) + "'";
    return std::nullopt;
  });
}

std::optional<Account> parse_account(std::string_view body, std::string& error) {
  return guarded(body, error, [&](const json& j) -> std::optional<Account> {
    Account a{str(j, "id"), str(j, "username"), str(j, "title"), std::nullopt};
    a.crazyhouse_rating = integer(object(object(j, "perfs"), "crazyhouse"), "rating");
    if (a.id.empty()) {
      error = "account response without id";
      return std::nullopt;
    }
    return a;
  });
}

std::vector<OnlineBot> parse_online_bots(std::string_view body) {
  std::vector<OnlineBot> bots;
  std::size_t start = 0;
  while (start < body.size()) {
    std::size_t end = body.find('\n', start);
    if (end == std::string_view::npos) end = body.size();
    const auto j = json::parse(body.substr(start, end - start), nullptr, false);
    start = end + 1;
    if (j.is_discarded() || !j.is_object()) continue;
    OnlineBot b;
    b.id = lower(str(j, "id"));
    b.username = str(j, "username");
    if (!is_valid_username(b.id) || !is_valid_username(b.username)) continue;
    const json& perf = object(object(j, "perfs"), "crazyhouse");
    b.crazyhouse_rating = integer(perf, "rating");
    b.crazyhouse_games = integer(perf, "games").value_or(0);
    b.provisional = boolean(perf, "prov");
    bots.push_back(std::move(b));
  }
  return bots;
}

std::string parse_challenge_id(std::string_view body) {
  const auto j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return {};
  // The create answer is the ChallengeJson itself (older servers wrapped it in "challenge").
  std::string id = str(j, "id");
  if (id.empty()) id = str(object(j, "challenge"), "id");
  return is_valid_id(id) ? id : std::string();
}

std::optional<RateLimitInfo> parse_rate_limit(std::string_view body) {
  const auto j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  const json& r = object(j, "ratelimit");
  if (r.empty()) return std::nullopt;
  return RateLimitInfo{str(r, "key"), integer(r, "seconds")};
}

std::optional<std::vector<OngoingGame>> parse_playing(std::string_view body, std::string& error) {
  return guarded(body, error, [&](const json& j) -> std::optional<std::vector<OngoingGame>> {
    std::vector<OngoingGame> games;
    auto list = j.find("nowPlaying");
    if (list == j.end() || !list->is_array()) {
      error = "playing response without nowPlaying";
      return std::nullopt;
    }
    for (const json& g : *list) {
      if (!g.is_object()) continue;
      OngoingGame o;
      o.game_id = str(g, "gameId");
      o.full_id = str(g, "fullId");
      o.color = str(g, "color");
      o.variant = str(object(g, "variant"), "key");
      o.speed = str(g, "speed");
      o.is_my_turn = boolean(g, "isMyTurn");
      o.opponent = parse_opponent(object(g, "opponent"));
      if (!o.game_id.empty()) games.push_back(std::move(o));
    }
    return games;
  });
}

std::optional<std::vector<std::string>> parse_bot_ids(std::string_view body, std::string& error) {
  return guarded(body, error, [&](const json& j) -> std::optional<std::vector<std::string>> {
    if (!j.is_array()) {
      error = "users status response is not an array";
      return std::nullopt;
    }
    std::vector<std::string> bots;
    for (const json& u : j)
      if (u.is_object() && str(u, "title") == "BOT" && !str(u, "id").empty())
        bots.push_back(lower(str(u, "id")));
    return bots;
  });
}

std::string rating_text(const std::optional<int>& rating) {
  return rating ? std::to_string(*rating) : "?";
}

std::string error_text(std::string_view body) {
  json j = json::parse(body, nullptr, false);
  if (!j.is_discarded() && j.is_object()) {
    auto it = j.find("error");
    if (it != j.end() && it->is_string()) return it->get<std::string>();
  }
  std::string cut(body.substr(0, 200));
  for (char& c : cut)
    if (c == '\n' || c == '\r') c = ' ';
  return cut;
}

bool is_valid_id(std::string_view id) {
  if (id.empty() || id.size() > 32) return false;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

bool is_valid_username(std::string_view name) {
  if (name.empty() || name.size() > 30) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace zh::bot
