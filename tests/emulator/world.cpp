// The emulated lichess's state and what every part of it shares: construction and shutdown,
// ids, error replies, and how a change reaches the streams. The calls it serves are in
// world_account.cpp, world_streams.cpp, world_game_actions.cpp, world_challenges.cpp,
// world_public.cpp and world_admin.cpp; the clock that runs it in world_clock.cpp.
#include "tests/emulator/world.h"

#include <algorithm>
#include <chrono>
#include <ctime>

#include "tests/emulator/json_views.h"

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

}  // namespace zh::emulator
