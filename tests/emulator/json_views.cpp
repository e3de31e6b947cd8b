#include "tests/emulator/json_views.h"

#include <array>
#include <chrono>
#include <string_view>

namespace zh::emulator {
namespace {

using nlohmann::json;

struct VariantRow {
  std::string_view key, name, short_name;
};

constexpr std::array<VariantRow, 10> kVariants{{
    {"standard", "Standard", "Std"},
    {"crazyhouse", "Crazyhouse", "Crazy"},
    {"chess960", "Chess960", "960"},
    {"antichess", "Antichess", "Anti"},
    {"atomic", "Atomic", "Atom"},
    {"horde", "Horde", "Horde"},
    {"kingOfTheHill", "King of the Hill", "KotH"},
    {"racingKings", "Racing Kings", "Race"},
    {"threeCheck", "Three-check", "3check"},
    {"fromPosition", "From Position", "FEN"},
}};

const VariantRow& variant_row(const std::string& key) {
  for (const auto& v : kVariants)
    if (v.key == key) return v;
  return kVariants[0];
}

std::string capitalised(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = char(s[0] - 'a' + 'A');
  return s;
}

// The perf a game is rated in: the variant for variants, the speed for standard chess.
std::string perf_key(const std::string& variant, const std::string& speed) {
  if (variant == "standard" || variant == "fromPosition") return speed;
  return variant;
}

std::string perf_name(const std::string& variant, const std::string& speed) {
  if (variant == "standard" || variant == "fromPosition") return capitalised(speed);
  return std::string(variant_row(variant).name);
}

json player_json(const PlayerInfo& p) {
  json j = {{"id", p.id}, {"name", p.name}, {"rating", p.rating}};
  j["title"] = p.title.empty() ? json(nullptr) : json(p.title);
  if (p.provisional) j["provisional"] = true;
  return j;
}

json challenge_user_json(const PlayerInfo& p) {
  json j = {{"id", p.id}, {"name", p.name}, {"rating", p.rating}, {"online", true}, {"lag", 4}};
  if (!p.title.empty()) j["title"] = p.title;
  if (p.provisional) j["provisional"] = true;
  return j;
}

std::string minutes_text(int limit_s) {
  switch (limit_s) {
    case 15:
      return "¼";
    case 30:
      return "½";
    case 45:
      return "¾";
    case 90:
      return "1.5";
    default:
      return std::to_string(limit_s / 60);
  }
}

std::string decline_text(const std::string& key) {
  if (key == "later") return "This is not the right time for me, please ask again later.";
  if (key == "toofast")
    return "This time control is too fast for me, please challenge again with a slower game.";
  if (key == "tooslow")
    return "This time control is too slow for me, please challenge again with a faster game.";
  if (key == "timecontrol") return "I'm not accepting challenges with this time control.";
  if (key == "rated") return "Please send me a rated challenge instead.";
  if (key == "casual") return "Please send me a casual challenge instead.";
  if (key == "standard") return "I'm not accepting variant challenges right now.";
  if (key == "variant") return "I'm not willing to play this variant right now.";
  if (key == "nobot") return "I'm not accepting challenges from bots.";
  if (key == "onlybot") return "I'm only accepting challenges from bots.";
  return "I'm not accepting challenges at the moment.";
}

// The 4-character player part of lichess's 12-character fullId.
std::string player_suffix(const std::string& game_id) {
  static constexpr std::string_view kAlphabet =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::size_t h = std::hash<std::string>{}(game_id + "/bot");
  std::string out;
  for (int i = 0; i < 4; ++i) {
    out += kAlphabet[h % kAlphabet.size()];
    h /= kAlphabet.size();
  }
  return out;
}

}  // namespace

json variant_json(const std::string& key) {
  const auto& v = variant_row(key);
  return {{"key", v.key}, {"name", v.name}, {"short", v.short_name}};
}

json game_state_json(const EmuGame& g, SteadyTime now) {
  const auto& s = g.setup();
  json j = {{"type", "gameState"},
            {"moves", g.moves_text()},
            {"wtime", g.remaining(kWhite, now)},
            {"btime", g.remaining(kBlack, now)},
            {"winc", s.has_clock ? s.increment_ms : 0},
            {"binc", s.has_clock ? s.increment_ms : 0},
            {"status", status_name(g.status())}};
  if (g.winner()) j["winner"] = *g.winner() == kWhite ? "white" : "black";
  // Lichess adds the offer keys only when true.
  if (g.draw_offer(kWhite)) j["wdraw"] = true;
  if (g.draw_offer(kBlack)) j["bdraw"] = true;
  if (g.takeback_offer(kWhite)) j["wtakeback"] = true;
  if (g.takeback_offer(kBlack)) j["btakeback"] = true;
  if (g.expiration_applies())
    j["expiration"] = {{"idleMillis", g.idle_millis(now)}, {"millisToMove", s.first_move_ms}};
  return j;
}

json game_full_json(const EmuGame& g, SteadyTime now) {
  const auto& s = g.setup();
  json j = {{"type", "gameFull"},
            {"id", s.id},
            {"variant", variant_json("crazyhouse")},
            {"speed", s.speed},
            {"perf", {{"name", perf_name("crazyhouse", s.speed)}}},
            {"rated", s.rated},
            {"createdAt", s.created_at_ms},
            {"white", player_json(s.white)},
            {"black", player_json(s.black)},
            {"initialFen", "startpos"},
            {"state", game_state_json(g, now)}};
  if (s.has_clock) j["clock"] = {{"initial", s.initial_ms}, {"increment", s.increment_ms}};
  return j;
}

json game_event_info_json(const EmuGame& g, SteadyTime now) {
  const auto& s = g.setup();
  const Color me = g.bot_color();
  const PlayerInfo& opp = g.player(~me);
  json j = {{"fullId", s.id + player_suffix(s.id)},
            {"gameId", s.id},
            {"id", s.id},
            {"fen", g.rules().position().fen()},
            {"color", me == kWhite ? "white" : "black"},
            {"lastMove", g.last_move_uci()},
            {"source", "friend"},
            {"status", {{"id", status_id(g.status())}, {"name", status_name(g.status())}}},
            {"variant", {{"key", "crazyhouse"}, {"name", "Crazyhouse"}}},
            {"speed", s.speed},
            {"perf", perf_key("crazyhouse", s.speed)},
            {"rated", s.rated},
            {"hasMoved", g.has_moved(me)},
            {"opponent", {{"id", opp.id}, {"username", opp.name}, {"rating", opp.rating}}},
            {"isMyTurn", !g.finished() && g.side_to_move() == me},
            {"rating", g.player(me).rating},
            {"compat", {{"bot", true}, {"board", s.speed != "bullet"}}}};
  if (s.has_clock) j["secondsLeft"] = g.remaining(me, now) / 1000;
  if (g.winner()) j["winner"] = *g.winner() == kWhite ? "white" : "black";
  return j;
}

json challenge_json(const Challenge& c, bool with_direction) {
  const std::string speed = speed_of(c.has_clock, c.limit_s, c.increment_s, c.days);
  json tc;
  if (c.has_clock)
    tc = {{"type", "clock"},
          {"limit", c.limit_s},
          {"increment", c.increment_s},
          {"show", minutes_text(c.limit_s) + "+" + std::to_string(c.increment_s)}};
  else if (c.days > 0)
    tc = {{"type", "correspondence"}, {"daysPerTurn", c.days}};
  else
    tc = {{"type", "unlimited"}};
  json j = {{"id", c.id},
            {"url", "https://lichess.org/" + c.id},
            {"status", c.status},
            {"challenger", challenge_user_json(c.challenger)},
            {"destUser", challenge_user_json(c.dest)},
            {"variant", variant_json(c.variant)},
            {"rated", c.rated},
            {"speed", speed},
            {"timeControl", tc},
            {"color", c.color},
            {"finalColor", c.final_color == kWhite ? "white" : "black"},
            {"perf", {{"icon", "\ue00b"}, {"name", perf_name(c.variant, speed)}}}};
  if (with_direction) j["direction"] = c.incoming ? "in" : "out";
  if (c.status == "declined") {
    j["declineReason"] = decline_text(c.decline_reason_key);
    j["declineReasonKey"] = c.decline_reason_key;
  }
  return j;
}

json challenge_event_json(const Challenge& c, const std::string& type) {
  json j = {{"type", type}, {"challenge", challenge_json(c, false)}};
  if (type == "challenge") {
    const std::string speed = speed_of(c.has_clock, c.limit_s, c.increment_s, c.days);
    j["compat"] = {{"bot", speed != "ultraBullet"}, {"board", speed != "ultraBullet"}};
  }
  return j;
}

json chat_line_json(const ChatLine& line) {
  return {{"type", "chatLine"}, {"username", line.user}, {"text", line.text}, {"room", line.room}};
}

json opponent_gone_json(bool gone, int claim_win_in_seconds) {
  json j = {{"type", "opponentGone"}, {"gone", gone}};
  if (gone) j["claimWinInSeconds"] = claim_win_in_seconds;
  return j;
}

json account_json(const PlayerInfo& me, int games_played, std::int64_t created_at_ms) {
  const std::int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count();
  json perf = {{"games", games_played}, {"rating", me.rating}, {"rd", 60}, {"prog", 0}};
  json j = {
      {"id", me.id},
      {"username", me.name},
      {"perfs",
       {{"crazyhouse", perf},
        {"bullet", {{"games", 0}, {"rating", 1500}, {"rd", 500}, {"prog", 0}, {"prov", true}}},
        {"blitz", {{"games", 0}, {"rating", 1500}, {"rd", 500}, {"prog", 0}, {"prov", true}}}}},
      {"createdAt", created_at_ms},
      {"seenAt", now_ms},
      {"playTime", {{"total", 0}, {"tv", 0}}},
      {"url", "https://lichess.org/@/" + me.name},
      {"count",
       {{"all", games_played},
        {"rated", 0},
        {"draw", 0},
        {"loss", 0},
        {"win", 0},
        {"bookmark", 0},
        {"playing", 0},
        {"import", 0},
        {"me", 0}}},
      {"followable", true},
      {"following", false},
      {"blocking", false}};
  if (!me.title.empty()) j["title"] = me.title;
  return j;
}

json game_export_json(const EmuGame& g, const std::vector<std::string>& san,
                      std::int64_t last_move_at_ms) {
  const auto& s = g.setup();
  auto player = [](const PlayerInfo& p) {
    json user = {{"id", p.id}, {"name", p.name}};
    if (!p.title.empty()) user["title"] = p.title;
    json j = {{"user", user}, {"rating", p.rating}};
    if (p.provisional) j["provisional"] = true;
    return j;
  };
  std::string moves;
  for (const auto& m : san) {
    if (!moves.empty()) moves += ' ';
    moves += m;
  }
  json j = {{"id", s.id},
            {"rated", s.rated},
            {"variant", "crazyhouse"},
            {"speed", s.speed},
            {"perf", perf_key("crazyhouse", s.speed)},
            {"createdAt", s.created_at_ms},
            {"lastMoveAt", last_move_at_ms},
            {"status", status_name(g.status())},
            {"source", "friend"},
            {"players", {{"white", player(s.white)}, {"black", player(s.black)}}},
            {"moves", moves}};
  if (g.winner()) j["winner"] = *g.winner() == kWhite ? "white" : "black";
  if (s.has_clock)
    j["clock"] = {{"initial", s.initial_ms / 1000},
                  {"increment", s.increment_ms / 1000},
                  {"totalTime", s.initial_ms / 1000 + 40 * s.increment_ms / 1000}};
  return j;
}

json online_bot_json(const PlayerInfo& bot) {
  return {{"id", bot.id},
          {"username", bot.name},
          {"title", "BOT"},
          {"perfs",
           {{"crazyhouse", {{"games", 100}, {"rating", bot.rating}, {"rd", 60}, {"prog", 0}}}}},
          {"createdAt", 1700000000000},
          {"seenAt", 1700000000000},
          {"playTime", {{"total", 1000}, {"tv", 0}}}};
}

std::string speed_of(bool has_clock, int limit_s, int increment_s, int days) {
  if (!has_clock) return "correspondence";
  (void)days;
  const int estimate = limit_s + 40 * increment_s;
  if (estimate < 30) return "ultraBullet";
  if (estimate < 180) return "bullet";
  if (estimate < 480) return "blitz";
  if (estimate < 1500) return "rapid";
  if (estimate < 21600) return "classical";
  return "correspondence";
}

}  // namespace zh::emulator
