#include "bot/desk/seeker.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "bot/desk/matchmaker.h"
#include "engine/util/strings.h"

namespace zh::bot {

namespace {

constexpr std::chrono::minutes kRatingRefresh{30};
constexpr Millis kFirstRateLimitBackoff{60000};
constexpr Millis kMaxRateLimitBackoff{600000};
constexpr std::chrono::hours kDefaultBotLimitPause{1};
constexpr int kOnlineBotsAsked = 100;

}  // namespace

Seeker::Seeker(const BotConfig& config, DeskDeps deps, FromDesk desk)
    : policy_(config.challenge),
      options_(config.matchmaking),
      deps_(std::move(deps)),
      desk_(std::move(desk)) {
  const TimePoint now = deps_.clock->now();
  idle_since_ = now;
  next_seek_ = now;
  bot_limit_until_ = now;
  rating_read_at_ = now;
}

void Seeker::note_bot_limit(const ApiResult& r, TimePoint now) {
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

bool Seeker::matches(const std::string& id, const std::string& user_id) const {
  if (!outgoing_) return false;
  if (!outgoing_->id.empty()) return outgoing_->id == id;
  // Still being created: a fast answer can come before the POST returns; the opponent tells.
  return !user_id.empty() && outgoing_->user_id == user_id;
}

void Seeker::forget(TimePoint now) {
  outgoing_.reset();
  next_seek_ = std::max(next_seek_, now + std::chrono::seconds(options_.interval_s));
}

bool Seeker::on_canceled(const Challenge& c, TimePoint now) {
  if (!matches(c.id, "")) return false;
  spdlog::info("our challenge {} to {} expired", c.id, outgoing_->username);
  deps_.metrics->add_matchmaking("canceled");
  forget(now);
  return true;
}

bool Seeker::on_declined(const Challenge& c, TimePoint now) {
  const std::string dest = c.dest_user ? lower(c.dest_user->id) : std::string();
  if (!matches(c.id, dest)) return false;
  const std::string user = outgoing_->user_id, name = outgoing_->username;
  const std::string reason = c.decline_reason_key.empty() ? "generic" : c.decline_reason_key;
  const auto memory = decline_memory(reason);
  forget(now);
  // The ledger has its own lock and writes a few hundred bytes: no HTTP, so it is done here,
  // before the log line and the count that say so (whoever watches them finds it written).
  // Some bots never accept: asking again every day only adds to their load and our log.
  const bool forever = options_.decliners_forever && lower(reason) != "later";
  const bool listed = forever && deps_.ledger->remember_forever(user, reason);
  deps_.ledger->remember_decline(user, reason, memory);
  const auto hours = std::chrono::duration_cast<std::chrono::hours>(memory).count();
  if (listed)
    spdlog::info("{} declined our challenge {} ({}); never asking it again (listed in {})", name,
                 c.id, reason, deps_.ledger->decliners().path().string());
  else if (forever)
    spdlog::warn(
        "{} declined our challenge {} ({}); cannot write {}: not asking it again for {} h only",
        name, c.id, reason, deps_.ledger->decliners().path().string(), hours);
  else
    spdlog::info("{} declined our challenge {} ({}); not asking it again for {} h", name, c.id,
                 reason, hours);
  deps_.metrics->add_matchmaking("declined");
  return true;
}

bool Seeker::on_game_start(const GameInfo& game) {
  if (!matches(game.game_id, lower(game.opponent.id))) return false;
  deps_.metrics->add_matchmaking("accepted");
  spdlog::info("{} accepted our challenge: game {}", outgoing_->username, game.game_id);
  outgoing_.reset();
  backoff_ = Millis(0);
  return true;
}

void Seeker::follow(TimePoint now) {
  if (!outgoing_ || outgoing_->id.empty()) return;
  const bool timed_out = now - outgoing_->sent_at >= std::chrono::seconds(options_.timeout_s);
  const std::string refusal = desk_.refusal();
  if (!timed_out && refusal.empty()) return;
  const std::string id = outgoing_->id, user = outgoing_->user_id;
  if (timed_out) {
    spdlog::info("{} did not answer our challenge {} within {} s: canceling it",
                 outgoing_->username, id, options_.timeout_s);
    deps_.ledger->remember_decline(user, "unanswered", kUnansweredMemory);
  } else {
    spdlog::info("canceling our challenge {} to {}: {}", id, outgoing_->username, refusal);
  }
  deps_.metrics->add_matchmaking("canceled");
  desk_.worker->post([this, id] {
    const ApiResult r = deps_.client->cancel_challenge(id);
    if (!r.ok() && r.status != ApiStatus::kNotFound)
      spdlog::warn("could not cancel our challenge {}: {}", id, r.error);
  });
  forget(now);
}

void Seeker::maybe_seek(TimePoint now, bool desk_busy) {
  if (!options_.enabled) return;
  const int running = deps_.sessions->running();
  const bool bot_slot_free = running < policy_.max_concurrent_games &&
                             deps_.sessions->running_bots() <
                                 policy_.max_concurrent_games - policy_.games_reserved_for_humans;
  const bool games_in_the_way = running > 0 && !(options_.during_games && bot_slot_free);
  if (outgoing_ || desk_busy || games_in_the_way || !desk_.refusal().empty()) {
    idle_since_ = now;
    return;
  }
  if (now - idle_since_ < std::chrono::seconds(options_.idle_s) || now < next_seek_ ||
      now < bot_limit_until_)
    return;
  const int bot_games = deps_.ledger->bot_games_last_24h();
  deps_.metrics->set_bot_games_24h(bot_games);
  if (bot_games >= policy_.max_bot_games_per_day) {
    if (!cap_logged_)
      spdlog::info("daily bot-game limit reached ({} of {} in 24 h): not seeking", bot_games,
                   policy_.max_bot_games_per_day);
    cap_logged_ = true;
    next_seek_ = now + std::chrono::seconds(options_.interval_s);
    return;
  }
  cap_logged_ = false;
  outgoing_ = Outgoing{};
  outgoing_->sent_at = now;
  next_seek_ = now + std::chrono::seconds(options_.interval_s);
  deps_.metrics->add_matchmaking("sought");
  spdlog::info(
      "idle for {} s{}: looking for an online bot to challenge ({} bot games in 24 h)",
      std::chrono::duration_cast<std::chrono::seconds>(now - idle_since_).count(),
      running > 0 ? " with " + std::to_string(running) + " game(s) running" : std::string(),
      bot_games);
  desk_.worker->post([this] { seek(); });
}

void Seeker::refresh_rating() {
  // Our rating moves with every game; read it again now and then (GET /api/account is
  // rate-limited, so not before every challenge).
  {
    std::lock_guard lock(*desk_.mutex);
    if (deps_.clock->now() - rating_read_at_ < kRatingRefresh) return;
  }
  std::optional<Account> account;
  if (deps_.client->get_account(account).ok() && account) {
    std::lock_guard lock(*desk_.mutex);
    desk_.account->crazyhouse_rating = account->crazyhouse_rating;
    rating_read_at_ = deps_.clock->now();
  }
}

void Seeker::seek() {
  refresh_rating();
  std::vector<OnlineBot> online;
  const ApiResult listed = deps_.client->get_online_bots(kOnlineBotsAsked, online);
  OnlineBot chosen;
  SeekClock clock;
  bool rated = false;
  {
    std::lock_guard lock(*desk_.mutex);
    const TimePoint now = deps_.clock->now();
    if (!outgoing_) return;  // given up meanwhile (draining)
    if (!listed.ok()) {
      deps_.metrics->add_matchmaking("failed");
      spdlog::warn("matchmaking: cannot list the online bots: {}", listed.error);
      return forget(now);
    }
    SeekContext ctx;
    ctx.my_id = desk_.account->id;
    ctx.my_rating = desk_.account->crazyhouse_rating;
    ctx.challenge_block_list = policy_.block_list;
    ctx.excluded = [this](const std::string& id) {
      return deps_.ledger->declined(id).has_value() || deps_.sessions->with_opponent(id) > 0;
    };
    const auto candidates = seek_candidates(online, options_, ctx);
    if (candidates.empty()) {
      deps_.metrics->add_matchmaking("no_candidate");
      spdlog::info(
          "matchmaking: none of {} online bots fits (plays crazyhouse, rated within {} of {} "
          "and in [{}, {}], not blocked, not declined lately); trying again in {} s",
          online.size(), options_.rating_difference, ctx.my_rating.value_or(kDefaultRating),
          options_.min_rating, options_.max_rating, options_.interval_s);
      return forget(now);
    }
    chosen = pick_opponent(candidates, deps_.random());
    clock = pick_clock(options_.clocks, deps_.random());
    rated = pick_rated(options_.mode, deps_.random());
    outgoing_->user_id = lower(chosen.id);
    outgoing_->username = chosen.username;
    outgoing_->clock = std::to_string(clock.limit_s) + "+" + std::to_string(clock.increment_s);
  }
  std::string id;
  const ApiResult r =
      deps_.client->create_challenge(chosen.username, clock.limit_s, clock.increment_s, rated, id);
  std::lock_guard lock(*desk_.mutex);
  const TimePoint now = deps_.clock->now();
  const bool still_ours =
      outgoing_ && outgoing_->user_id == lower(chosen.id) && outgoing_->id.empty();
  if (r.ok()) {
    deps_.metrics->add_matchmaking("challenged");
    deps_.metrics->add_seek_challenge(
        std::to_string(clock.limit_s) + "+" + std::to_string(clock.increment_s), rated);
    spdlog::info("challenged {} ({} in crazyhouse) to {} {}: challenge {}", chosen.username,
                 rating_text(chosen.crazyhouse_rating), outgoing_ ? outgoing_->clock : "",
                 rated ? "rated" : "casual", id);
    backoff_ = Millis(0);
    if (!still_ours) return;  // already answered (a fast accept or decline)
    const std::string refusal = desk_.refusal();
    if (!refusal.empty()) {
      spdlog::info("canceling our challenge {} at once: {}", id, refusal);
      desk_.worker->post([this, id] { deps_.client->cancel_challenge(id); });
      return forget(now);
    }
    outgoing_->id = id;
    outgoing_->sent_at = now;
    return;
  }
  if (still_ours) forget(now);
  const auto info = parse_rate_limit(r.body);
  if (r.status == ApiStatus::kRateLimited) {
    if (info && info->key == "bot.vsBot.day") return note_bot_limit(r, now);
    backoff_ = std::clamp(backoff_ * 2, kFirstRateLimitBackoff, kMaxRateLimitBackoff);
    next_seek_ = std::max(next_seek_, now + backoff_);
    deps_.metrics->add_matchmaking("rate_limited");
    spdlog::warn("matchmaking: challenging is rate-limited ({}); pausing {} s", r.error,
                 backoff_.count() / 1000);
    return;
  }
  // The "failed" count comes after the decline is remembered: whoever watches the count (the
  // status page, a test) then finds the decline already there.
  if (r.status == ApiStatus::kClientError) {
    // Refused by lichess for this opponent (it does not take challenges, it reached its own
    // daily bot-game limit, ...): leave it alone as long as lichess says, else for a day.
    const std::chrono::seconds memory = info && info->seconds
                                            ? std::chrono::seconds(*info->seconds)
                                            : std::chrono::seconds(std::chrono::hours(24));
    spdlog::info("matchmaking: lichess refused our challenge to {} ({}); not asking it for {} s",
                 chosen.username, r.error, memory.count());
    deps_.ledger->remember_decline(lower(chosen.id), "refused", memory);
    deps_.metrics->add_matchmaking("failed");
    return;
  }
  spdlog::warn("matchmaking: could not challenge {}: {}", chosen.username, r.error);
  deps_.metrics->add_matchmaking("failed");
}

MatchmakingView Seeker::view(TimePoint now, std::int64_t now_unix_ms) const {
  MatchmakingView v;
  v.enabled = options_.enabled;
  if (!v.enabled) return v;
  const auto unix_ms = [&](TimePoint t) {
    return now_unix_ms + std::chrono::duration_cast<std::chrono::milliseconds>(t - now).count();
  };
  if (outgoing_) {
    v.challenging = outgoing_->username;
    v.challenge_clock = outgoing_->clock;
  } else {
    v.next_seek_unix_ms =
        unix_ms(std::max(next_seek_, idle_since_ + std::chrono::seconds(options_.idle_s)));
  }
  if (now < bot_limit_until_) v.bot_games_paused_until_unix_ms = unix_ms(bot_limit_until_);
  v.bot_games_24h = deps_.ledger->bot_games_last_24h();
  for (const auto& d : deps_.ledger->declines())
    v.declined_by.push_back({d.user_id, d.reason, d.until_unix_s * 1000});
  return v;
}

}  // namespace zh::bot
