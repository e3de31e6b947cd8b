#include "tests/emulator/world.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <stdexcept>

#include "engine/util/strings.h"
#include "tests/emulator/json_views.h"
#include "tests/emulator/pgn.h"

namespace zh::emulator {
namespace {

using nlohmann::json;

std::string today() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
  return buf;
}

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

World::World(WorldOptions options)
    : options_(std::move(options)),
      faults_(options_.seed),
      log_(options_.echo_requests),
      rng_(options_.seed) {
  created_at_ms_ = epoch_ms() - 86'400'000;
  bot_titled_ = options_.bot.title == "BOT";
  ticker_ = std::thread([this] { ticker_loop(); });
}

World::~World() { shutdown(); }

void World::shutdown() {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    if (event_stream_) event_stream_->sever();
    for (auto& [id, rec] : games_)
      for (auto& [ua, ch] : rec.streams) ch->sever();
  }
  changed_cv_.notify_all();
  if (ticker_.joinable()) ticker_.join();
  std::vector<Driver> drivers;
  {
    std::lock_guard lock(mu_);
    drivers.swap(drivers_);
  }
  for (auto& d : drivers)
    if (d.thread.joinable()) d.thread.join();
}

std::int64_t World::epoch_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool World::token_ok(const std::string& token) const {
  return std::find(options_.tokens.begin(), options_.tokens.end(), token) != options_.tokens.end();
}

bool World::bot_titled() const {
  std::lock_guard lock(mu_);
  return bot_titled_;
}

ApiReply World::error(int status, const std::string& text) const {
  return ApiReply{status, json{{"error", text}}.dump(), "application/json"};
}

ApiReply World::not_found(const std::string& what) const { return error(404, what); }

std::string World::new_id() {
  static constexpr std::string_view kAlphabet =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  for (;;) {
    std::string id;
    for (int i = 0; i < 8; ++i) id += kAlphabet[rng_() % kAlphabet.size()];
    if (!challenges_.count(id) && !games_.count(id)) return id;
  }
}

World::GameRecord* World::find_game(const std::string& id) {
  auto it = games_.find(id);
  return it == games_.end() ? nullptr : &it->second;
}

ApiReply World::bot_game_or_error(const std::string& id, GameRecord*& rec) {
  rec = find_game(id);
  if (!rec) return not_found("No such game");
  return ApiReply{};
}

void World::emit_event(const json& event) {
  if (event_stream_) event_stream_->push(event.dump());
}

void World::emit_game(GameRecord& rec, const json& line) {
  const std::string text = line.dump();
  for (auto it = rec.streams.begin(); it != rec.streams.end();) {
    if (!it->second->open()) {
      it = rec.streams.erase(it);
      continue;
    }
    it->second->push(text);
    ++it;
  }
}

void World::changed(GameRecord& rec, SteadyTime now) {
  ++rec.version;
  emit_game(rec, game_state_json(*rec.game, now));
  if (rec.game->finished() && !rec.finish_announced) {
    rec.finish_announced = true;
    rec.end_date = today();
    for (auto& [ua, ch] : rec.streams) ch->finish();  // lichess closes after the final state
    rec.streams.clear();
    emit_event({{"type", "gameFinish"}, {"game", game_event_info_json(*rec.game, now)}});
  }
  changed_cv_.notify_all();
}

// ---------------------------------------------------------------- account

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

// ---------------------------------------------------------------- streams

std::shared_ptr<LineChannel> World::open_event_stream() {
  std::lock_guard lock(mu_);
  const auto now = SteadyClock::now();
  if (event_stream_) event_stream_->sever();  // only one event stream per account
  event_stream_ = std::make_shared<LineChannel>();
  ++event_stream_opens_;
  // Replay: ongoing games first, then pending challenges (both directions).
  for (const auto& id : game_order_) {
    const auto& rec = games_.at(id);
    if (!rec.game->finished())
      emit_event({{"type", "gameStart"}, {"game", game_event_info_json(*rec.game, now)}});
  }
  for (const auto& [id, c] : challenges_)
    if (c.status == "created") emit_event(challenge_event_json(c, "challenge"));
  return event_stream_;
}

std::shared_ptr<LineChannel> World::open_game_stream(const std::string& id,
                                                     const std::string& agent, ApiReply& err) {
  std::lock_guard lock(mu_);
  GameRecord* rec = find_game(id);
  if (!rec) {
    err = not_found("No such game");
    return nullptr;
  }
  const auto now = SteadyClock::now();
  auto channel = std::make_shared<LineChannel>();
  ++rec->stream_opens;
  channel->push(game_full_json(*rec->game, now).dump());
  if (rec->game->finished()) {
    channel->finish();
    return channel;
  }
  // A second stream from the same client replaces the first one.
  auto& slot = rec->streams[agent];
  if (slot) slot->sever();
  slot = channel;
  return channel;
}

// ---------------------------------------------------------------- game actions

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

ApiReply World::abort(const std::string& id) {
  std::lock_guard lock(mu_);
  GameRecord* rec = nullptr;
  if (auto r = bot_game_or_error(id, rec); r.status != 200) return r;
  const auto now = SteadyClock::now();
  if (auto refused = rec->game->abort(rec->game->bot_color(), now)) return error(400, *refused);
  changed(*rec, now);
  return ApiReply{};
}

ApiReply World::resign(const std::string& id) {
  std::lock_guard lock(mu_);
  GameRecord* rec = nullptr;
  if (auto r = bot_game_or_error(id, rec); r.status != 200) return r;
  const auto now = SteadyClock::now();
  if (auto refused = rec->game->resign(rec->game->bot_color(), now)) return error(400, *refused);
  changed(*rec, now);
  return ApiReply{};
}

ApiReply World::draw(const std::string& id, bool yes) {
  std::lock_guard lock(mu_);
  GameRecord* rec = nullptr;
  if (auto r = bot_game_or_error(id, rec); r.status != 200) return r;
  const auto now = SteadyClock::now();
  if (rec->game->draw(rec->game->bot_color(), yes, now)) changed(*rec, now);
  return ApiReply{};
}

ApiReply World::takeback(const std::string& id, bool yes) {
  std::lock_guard lock(mu_);
  GameRecord* rec = nullptr;
  if (auto r = bot_game_or_error(id, rec); r.status != 200) return r;
  const auto now = SteadyClock::now();
  if (rec->game->takeback(rec->game->bot_color(), yes, now)) changed(*rec, now);
  return ApiReply{};
}

ApiReply World::claim_victory(const std::string& id) {
  std::lock_guard lock(mu_);
  GameRecord* rec = nullptr;
  if (auto r = bot_game_or_error(id, rec); r.status != 200) return r;
  const auto now = SteadyClock::now();
  if (auto refused = rec->game->claim_victory(rec->game->bot_color(), now))
    return error(400, *refused);
  changed(*rec, now);
  return ApiReply{};
}

ApiReply World::claim_draw(const std::string& id) {
  std::lock_guard lock(mu_);
  GameRecord* rec = nullptr;
  if (auto r = bot_game_or_error(id, rec); r.status != 200) return r;
  const auto now = SteadyClock::now();
  if (auto refused = rec->game->claim_draw(rec->game->bot_color(), now))
    return error(400, *refused);
  changed(*rec, now);
  return ApiReply{};
}

// ---------------------------------------------------------------- challenges

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

std::vector<std::string> World::online_bot_lines(int nb) {
  std::lock_guard lock(mu_);
  std::vector<std::string> out;
  for (const auto& [id, u] : users_)
    if (u.online_bot && int(out.size()) < nb) out.push_back(online_bot_json(u.info).dump());
  return out;
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

// ---------------------------------------------------------------- ticker

void World::ticker_loop() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    changed_cv_.wait_for(lock, std::chrono::milliseconds(20));
    if (stopping_) break;
    tick();
  }
}

void World::tick() {
  const auto now = SteadyClock::now();
  for (auto& [id, rec] : games_) {
    EmuGame& g = *rec.game;
    if (g.finished()) continue;
    if (g.tick(now)) {
      changed(rec, now);
      continue;
    }
    const Color opp = ~g.bot_color();
    if (g.gone(opp) && !rec.claim_announced && g.claim_win_in_seconds(opp, now) == 0) {
      rec.claim_announced = true;
      emit_game(rec, opponent_gone_json(true, 0));
    }
  }
  for (auto& [id, c] : challenges_) {
    if (c.status != "created") continue;
    const Millis age = millis_between(c.created, now);
    if (c.incoming && c.has_clock && age >= options_.challenge_ttl_ms) {
      c.status = "canceled";  // expired unanswered
      emit_event(challenge_event_json(c, "challengeCanceled"));
    } else if (!c.incoming && age >= options_.outgoing_answer_ms) {
      const SimUser& u = users_.at(c.dest.id);
      if (u.ignores) {
        // Never answers: lichess expires an unanswered real-time challenge.
        if (c.has_clock && age >= options_.challenge_ttl_ms) {
          c.status = "canceled";
          emit_event(challenge_event_json(c, "challengeCanceled"));
        }
      } else if (!u.decline_reason.empty()) {
        c.status = "declined";
        c.decline_reason_key = lower(u.decline_reason);  // lichess emits keys in lower case
        emit_event(challenge_event_json(c, "challengeDeclined"));
      } else if (c.variant != "crazyhouse") {
        c.status = "declined";
        c.decline_reason_key = "variant";
        emit_event(challenge_event_json(c, "challengeDeclined"));
      } else {
        c.status = "accepted";
        start_game(c, now);
      }
    }
  }
  reap_drivers();
}

void World::reap_drivers() {
  for (auto it = drivers_.begin(); it != drivers_.end();) {
    if (it->done->load()) {
      it->thread.join();
      it = drivers_.erase(it);
    } else {
      ++it;
    }
  }
}

void World::sever_all_streams() {
  std::lock_guard lock(mu_);
  if (event_stream_) event_stream_->sever();
  event_stream_.reset();
  for (auto& [id, rec] : games_) {
    for (auto& [ua, ch] : rec.streams) ch->sever();
    rec.streams.clear();
  }
}

}  // namespace zh::emulator
