#include "bot/desk/challenge_desk.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <limits>

#include "bot/desk/matchmaker.h"
#include "engine/util/strings.h"

namespace zh::bot {

namespace {

constexpr Millis kPendingExpiry{60000};  // an accepted challenge whose game never started
constexpr std::chrono::minutes kRatingRefresh{30};
constexpr Millis kFirstRateLimitBackoff{60000};
constexpr Millis kMaxRateLimitBackoff{600000};
constexpr std::chrono::hours kDefaultBotLimitPause{1};
constexpr int kOnlineBotsAsked = 100;

std::string describe(const Challenge& c) {
  std::string tc = c.time_control.type == "clock" ? std::to_string(c.time_control.limit_s) + "+" +
                                                        std::to_string(c.time_control.increment_s)
                                                  : c.time_control.type;
  return c.variant + " " + c.speed + " " + tc + " " + (c.rated ? "rated" : "casual");
}

std::string rating_text(const std::optional<int>& r) { return r ? std::to_string(*r) : "?"; }

bool transient(const ApiResult& r) {
  return r.status == ApiStatus::kServerError || r.status == ApiStatus::kNetworkError ||
         r.status == ApiStatus::kRateLimited;
}

}  // namespace

ChallengeDesk::ChallengeDesk(const BotConfig& config, Deps deps)
    : config_(config),
      policy_(config.challenge),
      seek_(config.matchmaking),
      deps_(std::move(deps)),
      queue_(config.challenge.queue_size, config.challenge.queue_order),
      recent_(std::chrono::seconds(config.challenge.recent_bot_challenge_window_s)) {
  const TimePoint now = deps_.clock->now();
  idle_since_ = now;
  next_seek_ = now;
  bot_limit_until_ = now;
  rating_read_at_ = now;
}

ChallengeDesk::~ChallengeDesk() { stop(); }

void ChallengeDesk::stop() { worker_.stop(); }

void ChallengeDesk::set_account(const Account& account) {
  std::lock_guard lock(mutex_);
  account_ = account;
  account_.id = lower(account_.id);
  rating_read_at_ = deps_.clock->now();
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
  load.active_games = deps_.sessions->running() + int(pending_.size()) + (outgoing_ ? 1 : 0);
  load.active_bot_games = deps_.sessions->running_bots() + (outgoing_ ? 1 : 0);
  for (const auto& [id, p] : pending_) load.active_bot_games += p.bot;
  load.games_with_challenger = deps_.sessions->with_opponent(challenger) +
                               queue_.with_challenger(challenger) - (queue_.contains(c.id) ? 1 : 0);
  for (const auto& [id, p] : pending_) load.games_with_challenger += p.challenger_id == challenger;
  load.recent_from_challenger = recent_.count(challenger, now);
  load.bot_games_last_24h = deps_.ledger->bot_games_last_24h();
  // Lichess told us our daily bot-game limit is reached: a bot game cannot start before then.
  if (now < bot_limit_until_) load.bot_games_last_24h = std::numeric_limits<int>::max();
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
    if (c.challenger.is_bot()) note_bot_limit_locked(r, deps_.clock->now());
    // A transient failure: when the event stream replays the challenge, try it again.
    if (transient(r)) seen_.forget(c.id);
  });
}

void ChallengeDesk::decline_locked(const Challenge& c, DeclineReason reason,
                                   const std::string& why) {
  deps_.metrics->add_challenge("declined");
  spdlog::info("declining challenge {} from {} ({}, {}): {} -> reason {}", c.id, c.challenger.name,
               rating_text(c.challenger.rating), describe(c), why, std::string(to_string(reason)));
  worker_.post([this, id = c.id, reason] {
    const ApiResult r = deps_.client->decline_challenge(id, reason);
    if (!r.ok()) spdlog::warn("could not decline challenge {}: {}", id, r.error);
  });
}

void ChallengeDesk::note_bot_limit_locked(const ApiResult& r, TimePoint now) {
  if (r.status != ApiStatus::kRateLimited) return;
  const auto info = parse_rate_limit(r.body);
  if (!info || info->key != "bot.vsBot.day") return;
  const std::chrono::seconds pause =
      info->seconds ? std::chrono::seconds(*info->seconds) : kDefaultBotLimitPause;
  bot_limit_until_ = now + pause;
  deps_.metrics->add_matchmaking("rate_limited");
  spdlog::warn(
      "lichess says our daily bot-game limit is reached (bot.vsBot.day): no bot games for {} s",
      pause.count());
}

void ChallengeDesk::on_challenge_canceled(const Challenge& c) {
  std::lock_guard lock(mutex_);
  const TimePoint now = deps_.clock->now();
  if (matches_outgoing_locked(c.id, "")) {
    spdlog::info("our challenge {} to {} expired", c.id, outgoing_->username);
    deps_.metrics->add_matchmaking("canceled");
    return forget_outgoing_locked(now);
  }
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

bool ChallengeDesk::matches_outgoing_locked(const std::string& id,
                                            const std::string& user_id) const {
  if (!outgoing_) return false;
  if (!outgoing_->id.empty()) return outgoing_->id == id;
  // Still being created: a fast answer can come before the POST returns; the opponent tells.
  return !user_id.empty() && outgoing_->user_id == user_id;
}

void ChallengeDesk::on_challenge_declined(const Challenge& c) {
  std::lock_guard lock(mutex_);
  const std::string dest = c.dest_user ? lower(c.dest_user->id) : std::string();
  if (!matches_outgoing_locked(c.id, dest)) {
    spdlog::info("challenge {} was declined ({})", c.id, c.decline_reason_key);
    return;
  }
  const std::string user = outgoing_->user_id, name = outgoing_->username;
  const std::string reason = c.decline_reason_key.empty() ? "generic" : c.decline_reason_key;
  const auto memory = decline_memory(reason);
  deps_.metrics->add_matchmaking("declined");
  forget_outgoing_locked(deps_.clock->now());
  // The ledger has its own lock and writes a few hundred bytes: no HTTP, so it is done here.
  if (seek_.decliners_forever && lower(reason) != "later") {
    // Some bots never accept: asking again every day only adds to their load and our log.
    if (deps_.ledger->remember_forever(user, reason))
      spdlog::info("{} declined our challenge {} ({}); never asking it again (listed in {})", name,
                   c.id, reason, deps_.ledger->decliners().path().string());
    else
      spdlog::warn(
          "{} declined our challenge {} ({}); cannot write {}: not asking it again "
          "for {} h only",
          name, c.id, reason, deps_.ledger->decliners().path().string(),
          std::chrono::duration_cast<std::chrono::hours>(memory).count());
  } else {
    spdlog::info("{} declined our challenge {} ({}); not asking it again for {} h", name, c.id,
                 reason, std::chrono::duration_cast<std::chrono::hours>(memory).count());
  }
  deps_.ledger->remember_decline(user, reason, memory);
}

bool ChallengeDesk::on_game_start(const GameInfo& game, bool* known) {
  if (known) *known = false;
  bool bot = false;
  {
    std::lock_guard lock(mutex_);
    const TimePoint now = deps_.clock->now();
    // The entry stays (holding the slot) until tick() sees the session running.
    if (matches_outgoing_locked(game.game_id, lower(game.opponent.id))) {
      deps_.metrics->add_matchmaking("accepted");
      spdlog::info("{} accepted our challenge: game {}", outgoing_->username, game.game_id);
      pending_[game.game_id] = Pending{now, lower(game.opponent.id), true, false};
      outgoing_.reset();
      seek_backoff_ = Millis(0);
    }
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
  follow_outgoing_locked(now);
  fill_slots_locked(now);
  maybe_seek_locked(now);
  deps_.metrics->set_challenge_queue(queue_.size());
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

void ChallengeDesk::forget_outgoing_locked(TimePoint now) {
  outgoing_.reset();
  next_seek_ = std::max(next_seek_, now + std::chrono::seconds(seek_.interval_s));
}

void ChallengeDesk::follow_outgoing_locked(TimePoint now) {
  if (!outgoing_ || outgoing_->id.empty()) return;
  const bool timed_out = now - outgoing_->sent_at >= std::chrono::seconds(seek_.timeout_s);
  const std::string refusal = refusal_locked();
  if (!timed_out && refusal.empty()) return;
  const std::string id = outgoing_->id, user = outgoing_->user_id;
  if (timed_out) {
    spdlog::info("{} did not answer our challenge {} within {} s: canceling it",
                 outgoing_->username, id, seek_.timeout_s);
    deps_.ledger->remember_decline(user, "unanswered", kUnansweredMemory);
  } else {
    spdlog::info("canceling our challenge {} to {}: {}", id, outgoing_->username, refusal);
  }
  deps_.metrics->add_matchmaking("canceled");
  worker_.post([this, id] {
    const ApiResult r = deps_.client->cancel_challenge(id);
    if (!r.ok() && r.status != ApiStatus::kNotFound)
      spdlog::warn("could not cancel our challenge {}: {}", id, r.error);
  });
  forget_outgoing_locked(now);
}

void ChallengeDesk::maybe_seek_locked(TimePoint now) {
  if (!seek_.enabled) return;
  // Running games keep the bot from seeking, unless seek_during_games lets it fill a slot a
  // bot game may take (never one kept for humans, never beyond max_concurrent_games).
  const int running = deps_.sessions->running();
  const bool bot_slot_free = running < policy_.max_concurrent_games &&
                             deps_.sessions->running_bots() <
                                 policy_.max_concurrent_games - policy_.games_reserved_for_humans;
  const bool games_in_the_way = running > 0 && !(seek_.during_games && bot_slot_free);
  const bool busy = outgoing_ || !pending_.empty() || !queue_.empty() || games_in_the_way ||
                    !refusal_locked().empty();
  if (busy) {
    idle_since_ = now;
    return;
  }
  if (now - idle_since_ < std::chrono::seconds(seek_.idle_s) || now < next_seek_ ||
      now < bot_limit_until_)
    return;
  const int bot_games = deps_.ledger->bot_games_last_24h();
  deps_.metrics->set_bot_games_24h(bot_games);
  if (bot_games >= policy_.max_bot_games_per_day) {
    if (!cap_logged_)
      spdlog::info("daily bot-game limit reached ({} of {} in 24 h): not seeking", bot_games,
                   policy_.max_bot_games_per_day);
    cap_logged_ = true;
    next_seek_ = now + std::chrono::seconds(seek_.interval_s);
    return;
  }
  cap_logged_ = false;
  outgoing_ = Outgoing{};
  outgoing_->sent_at = now;
  next_seek_ = now + std::chrono::seconds(seek_.interval_s);
  deps_.metrics->add_matchmaking("sought");
  spdlog::info(
      "idle for {} s{}: looking for an online bot to challenge ({} bot games in 24 h)",
      std::chrono::duration_cast<std::chrono::seconds>(now - idle_since_).count(),
      running > 0 ? " with " + std::to_string(running) + " game(s) running" : std::string(),
      bot_games);
  worker_.post([this] { seek(); });
}

void ChallengeDesk::seek() {
  // Our rating moves with every game; read it again now and then (GET /api/account is
  // rate-limited, so not before every challenge).
  bool refresh = false;
  {
    std::lock_guard lock(mutex_);
    refresh = deps_.clock->now() - rating_read_at_ >= kRatingRefresh;
  }
  if (refresh) {
    std::optional<Account> account;
    if (deps_.client->get_account(account).ok() && account) {
      std::lock_guard lock(mutex_);
      account_.crazyhouse_rating = account->crazyhouse_rating;
      rating_read_at_ = deps_.clock->now();
    }
  }
  std::vector<OnlineBot> online;
  const ApiResult listed = deps_.client->get_online_bots(kOnlineBotsAsked, online);
  OnlineBot chosen;
  SeekClock clock;
  bool rated = false;
  {
    std::lock_guard lock(mutex_);
    const TimePoint now = deps_.clock->now();
    if (!outgoing_) return;  // given up meanwhile (draining)
    if (!listed.ok()) {
      deps_.metrics->add_matchmaking("failed");
      spdlog::warn("matchmaking: cannot list the online bots: {}", listed.error);
      return forget_outgoing_locked(now);
    }
    SeekContext ctx;
    ctx.my_id = account_.id;
    ctx.my_rating = account_.crazyhouse_rating;
    ctx.challenge_block_list = policy_.block_list;
    ctx.excluded = [this](const std::string& id) {
      return deps_.ledger->declined(id).has_value() || deps_.sessions->with_opponent(id) > 0;
    };
    const auto candidates = seek_candidates(online, seek_, ctx);
    if (candidates.empty()) {
      deps_.metrics->add_matchmaking("no_candidate");
      spdlog::info(
          "matchmaking: none of {} online bots fits (plays crazyhouse, rated within {} of {} "
          "and in [{}, {}], not blocked, not declined lately); trying again in {} s",
          online.size(), seek_.rating_difference, ctx.my_rating.value_or(kDefaultRating),
          seek_.min_rating, seek_.max_rating, seek_.interval_s);
      return forget_outgoing_locked(now);
    }
    chosen = pick_opponent(candidates, deps_.random());
    clock = pick_clock(seek_.clocks, deps_.random());
    rated = pick_rated(seek_.mode, deps_.random());
    outgoing_->user_id = lower(chosen.id);
    outgoing_->username = chosen.username;
    outgoing_->clock = std::to_string(clock.limit_s) + "+" + std::to_string(clock.increment_s);
  }
  std::string id;
  const ApiResult r =
      deps_.client->create_challenge(chosen.username, clock.limit_s, clock.increment_s, rated, id);
  std::lock_guard lock(mutex_);
  const TimePoint now = deps_.clock->now();
  const bool still_ours =
      outgoing_ && outgoing_->user_id == lower(chosen.id) && outgoing_->id.empty();
  if (r.ok()) {
    deps_.metrics->add_matchmaking("challenged");
    spdlog::info("challenged {} ({} in crazyhouse) to {} {}: challenge {}", chosen.username,
                 rating_text(chosen.crazyhouse_rating), outgoing_ ? outgoing_->clock : "",
                 rated ? "rated" : "casual", id);
    seek_backoff_ = Millis(0);
    if (!still_ours) return;  // already answered (a fast accept or decline)
    const std::string refusal = refusal_locked();
    if (!refusal.empty()) {
      spdlog::info("canceling our challenge {} at once: {}", id, refusal);
      worker_.post([this, id] { deps_.client->cancel_challenge(id); });
      return forget_outgoing_locked(now);
    }
    outgoing_->id = id;
    outgoing_->sent_at = now;
    return;
  }
  if (still_ours) forget_outgoing_locked(now);
  const auto info = parse_rate_limit(r.body);
  if (r.status == ApiStatus::kRateLimited) {
    if (info && info->key == "bot.vsBot.day") return note_bot_limit_locked(r, now);
    seek_backoff_ = std::clamp(seek_backoff_ * 2, kFirstRateLimitBackoff, kMaxRateLimitBackoff);
    next_seek_ = std::max(next_seek_, now + seek_backoff_);
    deps_.metrics->add_matchmaking("rate_limited");
    spdlog::warn("matchmaking: challenging is rate-limited ({}); pausing {} s", r.error,
                 seek_backoff_.count() / 1000);
    return;
  }
  deps_.metrics->add_matchmaking("failed");
  if (r.status == ApiStatus::kClientError) {
    // Refused by lichess for this opponent (it does not take challenges, it reached its own
    // daily bot-game limit, ...): leave it alone as long as lichess says, else for a day.
    const std::chrono::seconds memory = info && info->seconds
                                            ? std::chrono::seconds(*info->seconds)
                                            : std::chrono::seconds(std::chrono::hours(24));
    spdlog::info("matchmaking: lichess refused our challenge to {} ({}); not asking it for {} s",
                 chosen.username, r.error, memory.count());
    deps_.ledger->remember_decline(lower(chosen.id), "refused", memory);
    return;
  }
  spdlog::warn("matchmaking: could not challenge {}: {}", chosen.username, r.error);
}

}  // namespace zh::bot
