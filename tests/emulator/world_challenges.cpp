// Challenges: POST /api/challenge/{id}/accept, /decline and /cancel, POST /api/challenge/{user},
// the daily limit of bot games, and the game an accepted challenge starts.
#include <algorithm>
#include <stdexcept>

#include "engine/util/strings.h"
#include "tests/emulator/json_views.h"
#include "tests/emulator/world.h"

namespace zh::emulator {

using nlohmann::json;

namespace {

const std::vector<std::string> kDeclineKeys = {"generic",     "later", "toofast", "tooslow",
                                               "timecontrol", "rated", "casual",  "standard",
                                               "variant",     "nobot", "onlybot"};

bool valid_limit(int s) {
  return s == 0 || s == 15 || s == 30 || s == 45 || s == 60 || s == 90 ||
         (s > 0 && s % 60 == 0 && s <= 10800);
}

std::string form_value(const std::multimap<std::string, std::string>& form, const std::string& k,
                       const std::string& fallback = "") {
  auto it = form.find(k);
  return it == form.end() ? fallback : it->second;
}

bool trueish(const std::string& v) { return v == "true" || v == "yes" || v == "1"; }

}  // namespace

ApiReply World::accept_challenge(const std::string& id) {
  std::lock_guard lock(mu_);
  auto it = challenges_.find(id);
  if (it == challenges_.end() || it->second.status != "created" || !it->second.incoming)
    return not_found();
  Challenge& c = it->second;
  if (c.variant != "crazyhouse")
    return error(400, "This emulator only plays crazyhouse; decline " + c.variant + " challenges");
  if (c.challenger.title == "BOT")
    if (auto limited = bot_game_limit()) return *limited;
  c.status = "accepted";
  start_game(c, SteadyClock::now());
  return ApiReply{};
}

ApiReply World::decline_challenge(const std::string& id, const std::string& reason) {
  std::lock_guard lock(mu_);
  auto it = challenges_.find(id);
  if (it == challenges_.end() || it->second.status != "created" || !it->second.incoming)
    return not_found();
  std::string key = lower(reason);
  if (std::find(kDeclineKeys.begin(), kDeclineKeys.end(), key) == kDeclineKeys.end())
    key = "generic";  // lichess maps unknown reasons to the generic one
  it->second.status = "declined";
  it->second.decline_reason_key = key;
  return ApiReply{};
}

ApiReply World::cancel_challenge(const std::string& id) {
  std::lock_guard lock(mu_);
  auto it = challenges_.find(id);
  if (it == challenges_.end() || it->second.status != "created" || it->second.incoming)
    return not_found();
  it->second.status = "canceled";
  emit_event(challenge_event_json(it->second, "challengeCanceled"));
  return ApiReply{};
}

ApiReply World::create_challenge(const std::string& username,
                                 const std::multimap<std::string, std::string>& form) {
  std::lock_guard lock(mu_);
  auto user = users_.find(lower(username));
  if (user == users_.end()) return error(400, "No such user: " + username);
  if (!user->second.refuses.empty()) {
    json body = {{"error", user->second.refuses}};
    if (user->second.refuses_seconds > 0)
      body["ratelimit"] = {{"key", "bot.vsBot.day"}, {"seconds", user->second.refuses_seconds}};
    return ApiReply{400, body.dump()};
  }
  Challenge c;
  c.id = new_id();
  c.challenger = options_.bot;
  c.challenger.title = bot_titled_ ? "BOT" : "";
  c.dest = user->second.info;
  c.incoming = false;
  c.variant = form_value(form, "variant", "standard");
  const std::string limit = form_value(form, "clock.limit");
  const std::string inc = form_value(form, "clock.increment");
  const std::string days = form_value(form, "days");
  try {
    if (!limit.empty() || !inc.empty()) {
      c.has_clock = true;
      c.limit_s = std::stoi(limit);
      c.increment_s = std::stoi(inc);
      if (!valid_limit(c.limit_s) || c.increment_s < 0 || c.increment_s > 60)
        return error(400,
                     "Invalid clock: clock.limit must be 0, 15, 30, 45, 60, 90 or a "
                     "multiple of 60 up to 10800; clock.increment 0..60");
    } else {
      c.has_clock = false;
      c.days = days.empty() ? 0 : std::stoi(days);
    }
  } catch (const std::exception&) {
    return error(400, "Invalid clock or days value");
  }
  c.rated = trueish(form_value(form, "rated", "false"));
  c.color = form_value(form, "color", "random");
  if (c.color != "white" && c.color != "black" && c.color != "random")
    return error(400, "color must be white, black or random");
  c.final_color = c.color == "white"   ? kWhite
                  : c.color == "black" ? kBlack
                                       : (rng_() & 1 ? kWhite : kBlack);
  if (!form_value(form, "rules").empty() && user->second.info.title == "BOT")
    return error(400, "Rules not applicable for bots");
  if (speed_of(c.has_clock, c.limit_s, c.increment_s, c.days) == "ultraBullet" &&
      user->second.info.title == "BOT")
    return error(400, "Bots cannot play UltraBullet. Choose a slower time control.");
  if (user->second.info.title == "BOT")
    if (auto limited = bot_game_limit()) return *limited;
  c.opponent = user->second.opponent;
  c.created = SteadyClock::now();
  c.created_epoch_ms = epoch_ms();
  emit_event(challenge_event_json(c, "challenge"));  // lichess also shows outgoing ones
  const json body = challenge_json(c, true);
  challenges_[c.id] = std::move(c);
  return ApiReply{200, body.dump()};
}

std::optional<ApiReply> World::bot_game_limit() const {
  if (bot_games_started_ < options_.bot_games_per_day) return std::nullopt;
  // As lila's BotLimit: the limiter of the day, and how long until a credit frees (the
  // emulator does not roll its window: an hour stands for "later").
  const json body = {{"error", "You have reached the daily limit of games against bots."},
                     {"ratelimit", {{"key", "bot.vsBot.day"}, {"seconds", 3600}}}};
  return ApiReply{429, body.dump()};
}

void World::start_game(Challenge& c, SteadyTime now) {
  GameSetup s;
  s.id = c.id;
  const Color challenger_color = c.final_color;
  PlayerInfo bot = options_.bot;
  bot.title = bot_titled_ ? "BOT" : "";
  const PlayerInfo& other = c.incoming ? c.challenger : c.dest;
  bot_games_started_ += other.title == "BOT";
  s.bot_color = c.incoming ? ~challenger_color : challenger_color;
  s.white = s.bot_color == kWhite ? bot : other;
  s.black = s.bot_color == kWhite ? other : bot;
  s.has_clock = c.has_clock;
  s.initial_ms = c.initial_ms_override > 0 ? c.initial_ms_override : Millis(c.limit_s) * 1000;
  s.increment_ms = Millis(c.increment_s) * 1000;
  s.rated = c.rated;
  s.speed = speed_of(c.has_clock, c.limit_s, c.increment_s, c.days);
  s.created_at_ms = epoch_ms();
  s.first_move_ms = options_.first_move_ms;
  GameRecord rec;
  rec.game = std::make_unique<EmuGame>(std::move(s), now);
  rec.opponent = c.opponent;
  auto [it, inserted] = games_.emplace(c.id, std::move(rec));
  game_order_.push_back(c.id);
  emit_event({{"type", "gameStart"}, {"game", game_event_info_json(*it->second.game, now)}});
  if (!c.opponent.greeting.empty()) {
    ChatLine line{other.name, c.opponent.greeting, "player"};
    it->second.game->add_chat(line);
  }
  auto done = std::make_shared<std::atomic<bool>>(false);
  const std::uint64_t seed = rng_();
  std::string id = c.id;
  drivers_.push_back(Driver{std::thread([this, id, seed, done] {
                              run_opponent(id, seed);
                              done->store(true);
                            }),
                            done});
}

}  // namespace zh::emulator
