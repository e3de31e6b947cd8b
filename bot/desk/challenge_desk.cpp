#include "bot/desk/challenge_desk.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <limits>

#include "bot/desk/desk_status.h"
#include "engine/util/strings.h"

namespace zh::bot {

namespace {

constexpr Millis kPendingExpiry{60000};  // an accepted challenge whose game never started

std::string describe(const Challenge& c) {
  std::string tc = c.time_control.type == "clock" ? std::to_string(c.time_control.limit_s) + "+" +
                                                        std::to_string(c.time_control.increment_s)
                                                  : c.time_control.type;
  return c.variant + " " + c.speed + " " + tc + " " + (c.rated ? "rated" : "casual");
}

bool transient(const ApiResult& r) {
  return r.status == ApiStatus::kServerError || r.status == ApiStatus::kNetworkError ||
         r.status == ApiStatus::kRateLimited;
}

}  // namespace

ChallengeDesk::ChallengeDesk(const BotConfig& config, Deps deps)
    : policy_(config.challenge),
      deps_(std::move(deps)),
      queue_(config.challenge.queue_size, config.challenge.queue_order),
      recent_(std::chrono::seconds(config.challenge.recent_bot_challenge_window_s)),
      seeker_(config, deps_, {&mutex_, &worker_, &account_, [this] { return refusal_locked(); }}) {}

ChallengeDesk::~ChallengeDesk() { stop(); }

void ChallengeDesk::stop() { worker_.stop(); }

void ChallengeDesk::set_account(const Account& account) {
  std::lock_guard lock(mutex_);
  account_ = account;
  account_.id = lower(account_.id);
  seeker_.account_read(deps_.clock->now());
  spdlog::info("our crazyhouse rating: {}", rating_text(account_.crazyhouse_rating));
}

void ChallengeDesk::decline_later_while(std::string why, std::function<bool()> predicate) {
  std::lock_guard lock(mutex_);
  refusals_.emplace_back(std::move(why), std::move(predicate));
}

int ChallengeDesk::waiting() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

int ChallengeDesk::place_of(const std::string& user) const {
  const std::string wanted = lower(user);
  std::lock_guard lock(mutex_);
  const auto entries = queue_.ordered();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const ChallengeUser& challenger = entries[i].challenge.challenger;
    if (lower(challenger.id) == wanted || lower(challenger.name) == wanted) return int(i) + 1;
  }
  return 0;
}

std::string ChallengeDesk::refusal_locked() const {
  for (const auto& [why, predicate] : refusals_)
    if (predicate()) return why;
  return {};
}

DaemonLoad ChallengeDesk::load_for_locked(const Challenge& c, TimePoint now) {
  DaemonLoad load;
  load.my_id = account_.id;
  load.my_rating = account_.crazyhouse_rating;
  load.refusal = refusal_locked();
  const std::string challenger = lower(c.challenger.id);
  load.active_games = deps_.sessions->running() + int(pending_.size()) + seeker_.active();
  load.active_bot_games = deps_.sessions->running_bots() + seeker_.active();
  for (const auto& [id, p] : pending_) load.active_bot_games += p.bot;
  load.games_with_challenger = deps_.sessions->with_opponent(challenger) +
                               queue_.with_challenger(challenger) - (queue_.contains(c.id) ? 1 : 0);
  for (const auto& [id, p] : pending_) load.games_with_challenger += p.challenger_id == challenger;
  load.recent_from_challenger = recent_.count(challenger, now);
  load.bot_games_last_24h = deps_.ledger->bot_games_last_24h();
  // Lichess told us our daily bot-game limit is reached: a bot game cannot start before then.
  if (seeker_.bot_games_paused(now)) load.bot_games_last_24h = std::numeric_limits<int>::max();
  return load;
}

void ChallengeDesk::on_challenge(const Challenge& c) {
  std::lock_guard lock(mutex_);
  if (!seen_.insert(c.id)) return;  // replayed after a reconnect
  const TimePoint now = deps_.clock->now();
  if (c.challenger.is_bot()) recent_.add(lower(c.challenger.id), now);
  const ChallengeDecision d = decide_challenge(c, policy_, load_for_locked(c, now));
  switch (d.kind) {
    case ChallengeDecision::Kind::kIgnore:
      spdlog::debug("challenge {} ignored: {}", c.id, d.why);
      return;
    case ChallengeDecision::Kind::kDecline:
      return decline_locked(c, d.reason, d.why);
    case ChallengeDecision::Kind::kAccept:
      return accept_locked(c, now, "accepting");
    case ChallengeDecision::Kind::kWait:
      if (!queue_.push(c, now))
        return decline_locked(c, DeclineReason::kLater,
                              d.why + (policy_.queue_size > 0 ? " and the queue is full" : ""));
      deps_.metrics->add_challenge("queued");
      deps_.metrics->set_challenge_queue(queue_.size());
      spdlog::info("challenge {} from {} ({}, {}) waits for a free slot: {} ({} waiting)", c.id,
                   c.challenger.name, rating_text(c.challenger.rating), describe(c), d.why,
                   queue_.size());
      return;
  }
}

void ChallengeDesk::accept_locked(const Challenge& c, TimePoint now, const char* how) {
  // The slot is taken before the HTTP call, so a burst of challenges cannot overshoot.
  pending_[c.id] = Pending{now, lower(c.challenger.id), c.challenger.is_bot(), false};
  deps_.metrics->add_challenge("accepted");
  spdlog::info("{} challenge {} from {} ({}, {})", how, c.id, c.challenger.name,
               rating_text(c.challenger.rating), describe(c));
  worker_.post([this, c] {
    const ApiResult r = deps_.client->accept_challenge(c.id, c.challenger.is_bot());
    std::lock_guard lock(mutex_);
    if (r.ok()) {
      spdlog::info("accepted challenge {} from {}", c.id, c.challenger.name);
      return;
    }
    pending_.erase(c.id);
    spdlog::warn("could not accept challenge {} from {}: {}", c.id, c.challenger.name, r.error);
    if (c.challenger.is_bot()) seeker_.note_bot_limit(r, deps_.clock->now());
    // A transient failure: when the event stream replays the challenge, try it again.
    if (transient(r)) seen_.forget(c.id);
  });
}

void ChallengeDesk::decline_locked(const Challenge& c, DeclineReason reason,
                                   const std::string& why) {
  deps_.metrics->add_challenge("declined");
  deps_.metrics->add_decline(to_string(reason));
  spdlog::info("declining challenge {} from {} ({}, {}): {} -> reason {}", c.id, c.challenger.name,
               rating_text(c.challenger.rating), describe(c), why, std::string(to_string(reason)));
  if (deps_.status)
    deps_.status->add_decline(declined_view(c, std::string(to_string(reason)), why));
  worker_.post([this, id = c.id, reason] {
    const ApiResult r = deps_.client->decline_challenge(id, reason);
    if (!r.ok()) spdlog::warn("could not decline challenge {}: {}", id, r.error);
  });
}

void ChallengeDesk::on_challenge_canceled(const Challenge& c) {
  std::lock_guard lock(mutex_);
  const TimePoint now = deps_.clock->now();
  if (seeker_.on_canceled(c, now)) return;
  if (queue_.remove(c.id)) {
    deps_.metrics->add_challenge("canceled");
    deps_.metrics->set_challenge_queue(queue_.size());
    spdlog::info("challenge {} from {} withdrawn while waiting ({} waiting)", c.id,
                 c.challenger.name, queue_.size());
    return;
  }
  pending_.erase(c.id);
  spdlog::info("challenge {} canceled by {}", c.id, c.challenger.name);
}

void ChallengeDesk::on_challenge_declined(const Challenge& c) {
  std::lock_guard lock(mutex_);
  if (!seeker_.on_declined(c, deps_.clock->now()))
    spdlog::info("challenge {} was declined ({})", c.id, c.decline_reason_key);
}

bool ChallengeDesk::on_game_start(const GameInfo& game, bool* known) {
  if (known) *known = false;
  bool bot = false;
  {
    std::lock_guard lock(mutex_);
    const TimePoint now = deps_.clock->now();
    // The entry stays (holding the slot) until tick() sees the session running.
    if (seeker_.on_game_start(game))
      pending_[game.game_id] = Pending{now, lower(game.opponent.id), true, false};
    auto it = pending_.find(game.game_id);
    if (it == pending_.end()) return false;
    if (known) *known = true;
    bot = it->second.bot;
    if (it->second.started) return bot;  // a replayed gameStart: counted already
    it->second.started = true;
    if (!bot) return false;
  }
  // Written through at once (outside the desk's lock): a crash right after must not lose it.
  deps_.ledger->record_bot_game();
  deps_.metrics->set_bot_games_24h(deps_.ledger->bot_games_last_24h());
  return true;
}

void ChallengeDesk::on_game_finish(const std::string& game_id) {
  std::lock_guard lock(mutex_);
  pending_.erase(game_id);
}

void ChallengeDesk::tick() {
  std::lock_guard lock(mutex_);
  const TimePoint now = deps_.clock->now();
  std::erase_if(pending_, [&](const auto& e) {
    return now - e.second.accepted_at > kPendingExpiry ||
           (e.second.started &&
            (deps_.sessions->contains(e.first) || deps_.sessions->finished(e.first)));
  });
  seeker_.follow(now);
  fill_slots_locked(now);
  seeker_.maybe_seek(now, !pending_.empty() || !queue_.empty());
  deps_.metrics->set_challenge_queue(queue_.size());
  if (deps_.status) {
    const std::int64_t now_unix_ms = deps_.status->now_unix_ms();
    deps_.status->publish_desk(
        {queue_view(queue_.ordered(), now, now_unix_ms), seeker_.view(now, now_unix_ms)});
  }
}

void ChallengeDesk::fill_slots_locked(TimePoint now) {
  if (queue_.empty()) return;
  // Each waiting challenge is judged again with today's load: the best one that fits a free
  // slot is accepted, one that no longer passes (draining, a cap reached) is declined.
  for (const auto& entry : queue_.ordered()) {
    const Challenge& c = entry.challenge;
    const ChallengeDecision d = decide_challenge(c, policy_, load_for_locked(c, now));
    if (d.kind == ChallengeDecision::Kind::kWait) continue;
    queue_.remove(c.id);
    if (d.kind == ChallengeDecision::Kind::kAccept)
      accept_locked(c, now, "a slot is free: accepting waiting");
    else if (d.kind == ChallengeDecision::Kind::kDecline)
      decline_locked(c, d.reason, d.why + " (while waiting)");
  }
}

}  // namespace zh::bot
