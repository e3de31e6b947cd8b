// The clock that runs the world between requests: every 20 ms the ticker flags games whose time
// ran out, announces an opponent gone long enough to claim, expires unanswered challenges,
// answers the bot's challenges for the simulated users, and reaps finished opponent drivers.
#include <chrono>

#include "engine/util/strings.h"
#include "tests/emulator/json_views.h"
#include "tests/emulator/world.h"

namespace zh::emulator {

using nlohmann::json;

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

}  // namespace zh::emulator
