// The simulated opponent: one thread per game decides what the other side does (answers
// offers, leaves, resigns, moves) and asks a MoveSource for its moves outside the lock.
#include <cstdio>
#include <thread>

#include "tests/emulator/json_views.h"
#include "tests/emulator/move_source.h"
#include "tests/emulator/world.h"

namespace zh::emulator {

using nlohmann::json;

ApiReply World::opponent_act(GameRecord& rec, const json& action, SteadyTime now) {
  EmuGame& g = *rec.game;
  const Color me = ~g.bot_color();
  const std::string kind = action.value("action", std::string());
  if (kind == "move") {
    const std::string uci = action.value("uci", std::string());
    if (auto refused = g.play(me, uci, now)) {
      if (g.finished()) changed(rec, now);
      return error(400, *refused);
    }
    rec.ply_at_ms.push_back(log_.elapsed_ms());
    if (g.gone(me)) {
      g.set_gone(me, false, 0, now);  // moving means it is back
      emit_game(rec, opponent_gone_json(false, 0));
    }
  } else if (kind == "resign") {
    if (auto refused = g.resign(me, now)) return error(400, *refused);
  } else if (kind == "abort") {
    if (auto refused = g.abort(me, now)) return error(400, *refused);
  } else if (kind == "draw" || kind == "takeback") {
    const bool yes = action.value("accept", true);
    const bool did = kind == "draw" ? g.draw(me, yes, now) : g.takeback(me, yes, now);
    if (!did) return ApiReply{};  // nothing to do, as lichess answers
  } else if (kind == "chat") {
    ChatLine line{g.player(me).name, action.value("text", std::string()),
                  action.value("room", std::string("player"))};
    g.add_chat(line);
    emit_game(rec, chat_line_json(line));
    return ApiReply{};
  } else if (kind == "leave") {
    const Millis claim_ms = action.value("claim_ms", rec.opponent.gone_claim_ms);
    g.set_gone(me, true, claim_ms, now);
    rec.claim_announced = false;
    emit_game(rec, opponent_gone_json(true, g.claim_win_in_seconds(me, now)));
    ++rec.version;
    changed_cv_.notify_all();
    return ApiReply{};
  } else if (kind == "return") {
    g.set_gone(me, false, 0, now);
    emit_game(rec, opponent_gone_json(false, 0));
    ++rec.version;
    changed_cv_.notify_all();
    return ApiReply{};
  } else {
    return error(400, "action must be move, resign, abort, draw, takeback, chat, leave or return");
  }
  changed(rec, now);
  return ApiReply{};
}

void World::run_opponent(std::string id, std::uint64_t seed) {
  std::unique_ptr<MoveSource> source;
  OpponentSpec spec;
  {
    std::lock_guard lock(mu_);
    spec = games_.at(id).opponent;
  }
  try {
    source = make_move_source(spec, seed, options_.engine_path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lichess-emulator: game %s: opponent cannot play: %s\n", id.c_str(),
                 e.what());
    return;  // the opponent stays idle; the game ends by the clock or the bot
  }
  bool offered_draw = false;
  int seen_version = -1;
  std::unique_lock lock(mu_);
  for (;;) {
    changed_cv_.wait_for(lock, std::chrono::milliseconds(200),
                         [&] { return stopping_ || games_.at(id).version != seen_version; });
    if (stopping_) return;
    GameRecord& rec = games_.at(id);
    EmuGame& g = *rec.game;
    if (g.finished()) return;
    if (rec.version == seen_version) continue;
    seen_version = rec.version;
    const Color me = ~g.bot_color();
    const auto now = SteadyClock::now();
    if (g.takeback_offer(~me)) {
      opponent_act(rec, {{"action", "takeback"}, {"accept", spec.accept_takeback}}, now);
      continue;
    }
    if (g.draw_offer(~me)) {
      opponent_act(rec, {{"action", "draw"}, {"accept", spec.accept_draw}}, now);
      continue;
    }
    if (g.side_to_move() != me || g.gone(me)) continue;
    const int ply = g.plies();
    if (spec.leave_at_ply >= 0 && ply >= spec.leave_at_ply) {
      opponent_act(rec, {{"action", "leave"}}, now);
      continue;
    }
    if (spec.resign_at_ply >= 0 && ply >= spec.resign_at_ply && !g.abortable()) {
      opponent_act(rec, {{"action", "resign"}}, now);
      return;
    }
    if (spec.offer_draw_at_ply >= 0 && ply >= spec.offer_draw_at_ply && !offered_draw) {
      offered_draw = true;
      opponent_act(rec, {{"action", "draw"}, {"accept", true}}, now);
    }
    TurnView turn{g.rules().position(),
                  g.uci_moves(CastlingNotation::kKingTwoSquares),
                  ply,
                  g.remaining(kWhite, now),
                  g.remaining(kBlack, now),
                  g.setup().increment_ms};
    const int version = rec.version;
    lock.unlock();
    if (spec.delay_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(spec.delay_ms));
    std::string uci;
    try {
      uci = source->choose(turn);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "lichess-emulator: game %s: opponent engine failed: %s\n", id.c_str(),
                   e.what());
    }
    lock.lock();
    if (stopping_) return;
    GameRecord& after = games_.at(id);
    // The game may have moved on meanwhile (takeback, abort, flag): drop a stale move.
    if (uci.empty() || after.version != version || after.game->finished()) continue;
    const ApiReply r = opponent_act(after, {{"action", "move"}, {"uci", uci}}, SteadyClock::now());
    if (r.status != 200)
      std::fprintf(stderr, "lichess-emulator: game %s: opponent move %s refused: %s\n", id.c_str(),
                   uci.c_str(), r.body.c_str());
  }
}

}  // namespace zh::emulator
