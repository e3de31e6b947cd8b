// The streams: GET /api/stream/event (one per account, replaying ongoing games and pending
// challenges) and GET /api/bot/game/stream/{id} (one per client), and dropping them all.
#include "tests/emulator/json_views.h"
#include "tests/emulator/world.h"

namespace zh::emulator {

using nlohmann::json;

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
