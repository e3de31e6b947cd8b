#include "bot/daemon/daemon.h"

#include <malloc.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "bot/daemon/exit_codes.h"
#include "bot/lichess/stream_runner.h"
#include "engine/util/strings.h"

namespace zh::bot {

namespace {

constexpr Millis kPendingExpiry{60000};  // an accepted challenge whose game never started
constexpr auto kBotCapWindow = std::chrono::hours(24);
constexpr auto kMainLoopSleep = std::chrono::milliseconds(200);
constexpr auto kStatusInterval = std::chrono::seconds(5);  // systemd STATUS= refresh

// The state file keeps wall-clock seconds (a restart starts a new steady clock); the daemon
// keeps its own clock's time points.
std::int64_t to_unix_seconds(TimePoint t, TimePoint now) {
  const auto wall = std::chrono::system_clock::now() - (now - t);
  return std::chrono::duration_cast<std::chrono::seconds>(wall.time_since_epoch()).count();
}

}  // namespace

Daemon::Daemon(const BotConfig& config, std::string token, EngineFactory make_engine, Clock& clock)
    : config_(config),
      clock_(clock),
      make_engine_(std::move(make_engine)),
      state_file_(resolve_state_dir(config.state_dir, std::getenv("STATE_DIRECTORY"))) {
  HttpSettings s;
  s.base_url = config.base_url;
  s.token = std::move(token);
  s.user_agent = "zhbot/" ZH_VERSION;
  s.request_timeout = Millis(config.request_timeout_ms);
  http_ = std::make_unique<HttpClient>(s);
  client_ = std::make_unique<LichessClient>(*http_, clock_, default_random_source(), cancel_);
  client_->set_observer([this](std::string_view endpoint, int status, Millis) {
    metrics_.add_http_response(endpoint, status);
  });
  ponder_ = std::make_unique<PonderCoordinator>(config.ponder, config.ponder_single_game_only);
}

Daemon::~Daemon() {
  cancel_.cancel();
  std::map<std::string, Running> sessions;
  {
    std::lock_guard lock(mutex_);
    sessions.swap(sessions_);
  }
  for (auto& [id, running] : sessions) running.session->shutdown();
  sessions.clear();  // joins each session's threads
}

void Daemon::request_shutdown() {
  if (draining_.exchange(true)) return;
  systemd_.stopping();
  systemd_.status("draining: " + metrics_.summary());
  spdlog::info("shutdown requested: declining new challenges, letting games finish (up to {} s)",
               config_.shutdown_grace_s);
}

void Daemon::request_immediate_exit() { immediate_ = true; }

int Daemon::check_account() {
  std::optional<Account> account;
  const ApiResult r = client_->get_account(account);
  if (r.status == ApiStatus::kUnauthorized) {
    spdlog::error(
        "lichess refused the token ({}): it is wrong, revoked, or lacks the bot:play "
        "scope. Create one at "
        "https://lichess.org/account/oauth/token/create?scopes[]=bot:play",
        r.error);
    return kExitConfig;
  }
  if (!r.ok()) {
    spdlog::error("cannot read the account from {}: {}", describe_url(config_.base_url), r.error);
    // Any other answer (network, 5xx, 429, a garbled body) is lichess's side: try again later.
    return kExitUnavailable;
  }
  if (!account->is_bot()) {
    spdlog::error(
        "'{}' is not a BOT account, and only BOT accounts may play through the Bot "
        "API. Upgrade it with `zhbot upgrade-account --yes` (irreversible; the account "
        "must not have played any game), then start again.",
        account->username);
    return kExitConfig;
  }
  account_ = *account;
  account_.id = lower(account_.id);
  spdlog::info("logged in to {} as {} (BOT)", describe_url(config_.base_url), account_.username);
  return kExitOk;
}

void Daemon::resume_ongoing_games() {
  std::vector<OngoingGame> games;
  const ApiResult r = client_->get_playing(games);
  if (!r.ok()) {
    // Not fatal: the event stream replays gameStart for every ongoing game as well.
    spdlog::warn("could not list ongoing games ({}); relying on the event stream", r.error);
    return;
  }
  for (const auto& g : games) {
    if (!g.variant.empty() && g.variant != "crazyhouse") {
      spdlog::warn("ongoing game {} is {}, not crazyhouse; not resuming it", g.game_id, g.variant);
      continue;
    }
    spdlog::info("resuming ongoing game {} vs {}", g.game_id, g.opponent.username);
    start_session(g.game_id, lower(g.opponent.id));
  }
}

int Daemon::run() {
  if (config_.metrics_port > 0) {
    health_ = std::make_unique<HealthServer>(metrics_, int(config_.metrics_port));
    health_->start();
    spdlog::info("health and metrics on http://127.0.0.1:{}/healthz and /metrics", health_->port());
  }
  if (const int rc = check_account(); rc != kExitOk) return rc;
  restore_state();
  resume_ongoing_games();
  std::thread events([this] { event_loop(); });

  std::optional<TimePoint> drain_deadline;
  std::string last_status;
  auto next_status = std::chrono::steady_clock::now();
  while (!immediate_) {
    // The watchdog is fed only by a loop that still turns: reap_sessions takes the lock the
    // event handlers take, so a deadlock there starves it and systemd restarts the bot.
    systemd_.watchdog_tick();
    reap_sessions();
    if (ready_sent_ && !draining_ && std::chrono::steady_clock::now() >= next_status) {
      next_status = std::chrono::steady_clock::now() + kStatusInterval;
      if (std::string now = "playing as " + account_.username + ": " + metrics_.summary();
          now != last_status) {
        systemd_.status(now);
        last_status = std::move(now);
      }
    }
    if (batch_fill_) metrics_.set_inference_batch_fill(batch_fill_());
    if (draining_) {
      const TimePoint now = clock_.now();
      if (!drain_deadline) drain_deadline = now + std::chrono::seconds(config_.shutdown_grace_s);
      const int running = running_games();
      if (running == 0) {
        spdlog::info("all games finished; exiting");
        break;
      }
      if (now >= *drain_deadline) {
        spdlog::warn(
            "shutdown grace over with {} game(s) running; they continue on lichess and "
            "resume on the next start",
            running);
        break;
      }
    }
    std::this_thread::sleep_for(kMainLoopSleep);
  }
  if (immediate_ && !fatal_)
    spdlog::warn("leaving at once; running games resume on the next start");
  if (!draining_) systemd_.stopping();
  cancel_.cancel();
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, running] : sessions_) running.session->shutdown();
  }
  events.join();
  std::map<std::string, Running> sessions;
  {
    std::lock_guard lock(mutex_);
    sessions.swap(sessions_);
  }
  sessions.clear();
  health_.reset();
  return fatal_ ? fatal_code_.load() : kExitOk;
}

void Daemon::event_loop() {
  StreamOptions options;
  options.endpoint = "stream-event";
  options.path = LichessClient::event_stream_path();
  options.idle_timeout = std::chrono::seconds(config_.stream_idle_timeout_s);
  StreamRunner runner(*http_, client_->rate_limits(), clock_, default_random_source(), options);
  StreamCallbacks callbacks;
  callbacks.on_line = [this](std::string_view line) {
    handle_line(line);
    return true;
  };
  callbacks.on_connected = [this] {
    metrics_.set_event_stream_connected(true);
    spdlog::info("event stream connected");
    // Ready means the account is checked and challenges can arrive: the first connection.
    if (!ready_sent_.exchange(true)) {
      systemd_.ready();
      systemd_.status("playing as " + account_.username + ": " + metrics_.summary());
    }
  };
  callbacks.on_disconnected = [this](const StreamResult& r, Millis delay) {
    metrics_.set_event_stream_connected(false);
    metrics_.add_stream_reconnect("event");
    const char* why = r.end == StreamEnd::kIdleTimeout    ? "no data within the idle timeout"
                      : r.end == StreamEnd::kServerClosed ? "closed by the server"
                      : r.end == StreamEnd::kHttpError    ? "HTTP error"
                                                          : "network error";
    spdlog::warn("event stream lost ({}{}{}); reconnecting in {:.1f} s", why,
                 r.status ? ", HTTP " + std::to_string(r.status) : std::string(),
                 r.error.empty() ? "" : ", " + r.error, delay.count() / 1000.0);
  };
  const StreamStop stop = runner.run(callbacks, cancel_);
  metrics_.set_event_stream_connected(false);
  if (stop == StreamStop::kCancelled) return;
  spdlog::error("the event stream was refused ({}: {}); {}", std::string(to_string(stop)),
                error_text(runner.last_result().body),
                stop == StreamStop::kUnauthorized
                    ? "the token is wrong, revoked, or lacks the bot:play scope"
                    : "stopping");
  fatal_code_ = stop == StreamStop::kUnauthorized ? kExitConfig : kExitFailure;
  fatal_ = true;
  immediate_ = true;
}

void Daemon::handle_line(std::string_view line) {
  std::string error;
  const auto event = parse_event(line, error);
  if (!event) {
    spdlog::warn("skipping event line: {}", error);
    return;
  }
  if (const auto* e = std::get_if<GameStartEvent>(&*event)) return on_game_start(e->game);
  if (const auto* e = std::get_if<GameFinishEvent>(&*event)) return on_game_finish(e->game);
  if (const auto* e = std::get_if<ChallengeEvent>(&*event)) return on_challenge(e->challenge);
  if (const auto* e = std::get_if<ChallengeCanceledEvent>(&*event)) {
    std::lock_guard lock(mutex_);
    pending_.erase(e->challenge.id);
    spdlog::info("challenge {} canceled by {}", e->challenge.id, e->challenge.challenger.name);
    return;
  }
  if (const auto* e = std::get_if<ChallengeDeclinedEvent>(&*event))
    spdlog::info("our challenge {} was declined ({})", e->challenge.id,
                 e->challenge.decline_reason_key);
}

void Daemon::on_game_start(const GameInfo& game) {
  {
    // finished_games_ is also written by reap_sessions on the main thread.
    std::lock_guard lock(mutex_);
    if (finished_games_.contains(game.game_id)) return;
  }
  if (!game.compat_bot) {
    spdlog::warn("game {} cannot be played with the Bot API; ignoring it", game.game_id);
    return;
  }
  if (!game.variant.empty() && game.variant != "crazyhouse") {
    spdlog::error("game {} is {}, not crazyhouse; zhbot only plays crazyhouse and leaves it alone",
                  game.game_id, game.variant);
    return;
  }
  bool bot_game = false;
  {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(game.game_id);
    if (it != pending_.end()) {
      bot_game = it->second.bot;
      if (bot_game) bot_game_starts_.push_back(clock_.now());
      pending_.erase(it);
    }
  }
  if (bot_game) save_state();  // a restart must not reset the 24 h cap
  start_session(game.game_id, lower(game.opponent.id));
}

void Daemon::on_game_finish(const GameInfo& game) {
  std::lock_guard lock(mutex_);
  finished_games_.insert(game.game_id);
  pending_.erase(game.game_id);
  auto it = sessions_.find(game.game_id);
  if (it != sessions_.end()) it->second.session->game_finished(game);
}

void Daemon::start_session(const std::string& game_id, const std::string& opponent_id) {
  if (!is_valid_id(game_id)) {
    spdlog::warn("ignoring a game with an invalid id");
    return;
  }
  std::lock_guard lock(mutex_);
  if (sessions_.count(game_id)) return;  // replayed gameStart: already playing it
  std::unique_ptr<MoveEngine> engine;
  try {
    engine = make_engine_();
  } catch (const std::exception& e) {
    spdlog::error("game {}: no engine ({}); the game is left to lichess", game_id, e.what());
    return;
  }
  GameSession::Deps deps;
  deps.http = http_.get();
  deps.client = client_.get();
  deps.clock = &clock_;
  deps.random = default_random_source();
  deps.metrics = &metrics_;
  deps.ponder = ponder_.get();
  deps.config = &config_;
  deps.my_id = account_.id;
  deps.my_name = account_.username;
  auto session = std::make_unique<GameSession>(game_id, std::move(deps), std::move(engine));
  session->start();
  sessions_[game_id] = Running{std::move(session), opponent_id};
  const int n = int(sessions_.size());
  metrics_.set_games_active(n);
  ponder_->set_games_running(n);
}

void Daemon::reap_sessions() {
  std::vector<std::unique_ptr<GameSession>> done;
  {
    std::lock_guard lock(mutex_);
    for (auto it = sessions_.begin(); it != sessions_.end();) {
      if (it->second.session->done()) {
        finished_games_.insert(it->first);
        done.push_back(std::move(it->second.session));
        it = sessions_.erase(it);
      } else {
        ++it;
      }
    }
    const TimePoint now = clock_.now();
    for (auto it = pending_.begin(); it != pending_.end();)
      it = now - it->second.accepted_at > kPendingExpiry ? pending_.erase(it) : std::next(it);
    while (!bot_game_starts_.empty() && now - bot_game_starts_.front() > kBotCapWindow)
      bot_game_starts_.pop_front();
    if (!done.empty()) {
      metrics_.set_games_active(int(sessions_.size()));
      ponder_->set_games_running(int(sessions_.size()));
    }
  }
  if (done.empty()) return;
  done.clear();  // joins outside the lock
  // A finished game frees its search tree (often hundreds of MiB); glibc keeps such memory in
  // its per-thread arenas unless asked to return it, and a daemon that runs for weeks should
  // show its real footprint between games.
  malloc_trim(0);
}

void Daemon::restore_state() {
  const PersistentState state = state_file_.load();
  const auto wall_now = std::chrono::system_clock::now();
  const TimePoint now = clock_.now();
  std::lock_guard lock(mutex_);
  for (const std::int64_t unix_s : state.bot_game_starts) {
    const auto age = wall_now - std::chrono::system_clock::time_point(std::chrono::seconds(unix_s));
    // Older than the window: forgotten. In the future (the wall clock went back): counted now.
    if (age > kBotCapWindow) continue;
    const auto since = std::max(std::chrono::system_clock::duration::zero(), age);
    bot_game_starts_.push_back(now - std::chrono::duration_cast<Millis>(since));
  }
  if (!bot_game_starts_.empty())
    spdlog::info("state: {} bot game(s) started in the last 24 h", bot_game_starts_.size());
}

void Daemon::save_state() {
  PersistentState state;
  {
    std::lock_guard lock(mutex_);
    const TimePoint now = clock_.now();
    for (const TimePoint t : bot_game_starts_)
      state.bot_game_starts.push_back(to_unix_seconds(t, now));
  }
  state_file_.save(state);
}

int Daemon::running_games() {
  std::lock_guard lock(mutex_);
  int n = 0;
  for (const auto& [id, running] : sessions_) n += !running.session->done();
  return n;
}

DaemonLoad Daemon::load_for(const Challenge& challenge) {
  DaemonLoad load;
  load.my_id = account_.id;
  load.shutting_down = draining_;
  load.evaluator_down = !metrics_.evaluator_healthy();
  const std::string challenger = lower(challenge.challenger.id);
  std::lock_guard lock(mutex_);
  for (const auto& [id, running] : sessions_) {
    if (running.session->done()) continue;
    ++load.active_games;
    load.games_with_challenger += running.opponent_id == challenger;
  }
  for (const auto& [id, pending] : pending_) {
    ++load.active_games;  // accepted but not started still takes a slot
    load.games_with_challenger += pending.challenger_id == challenger;
  }
  const TimePoint now = clock_.now();
  for (const auto& t : bot_game_starts_) load.bot_games_last_24h += now - t <= kBotCapWindow;
  return load;
}

void Daemon::on_challenge(const Challenge& c) {
  if (!seen_challenges_.insert(c.id)) return;  // replayed after a reconnect
  const ChallengeDecision d = decide_challenge(c, config_.challenge, load_for(c));
  const std::string what = c.variant + " " + c.speed + " " + (c.rated ? "rated" : "casual");
  switch (d.kind) {
    case ChallengeDecision::Kind::kIgnore:
      spdlog::debug("challenge {} ignored: {}", c.id, d.why);
      return;
    case ChallengeDecision::Kind::kDecline: {
      const ApiResult r = client_->decline_challenge(c.id, d.reason);
      spdlog::info("declined challenge {} from {} ({}): {} -> reason {}{}", c.id, c.challenger.name,
                   what, d.why, std::string(to_string(d.reason)),
                   r.ok() ? "" : " (" + r.error + ")");
      return;
    }
    case ChallengeDecision::Kind::kAccept: {
      {
        // Reserve the slot before the HTTP call so a burst of challenges cannot overshoot.
        std::lock_guard lock(mutex_);
        pending_[c.id] = Pending{clock_.now(), lower(c.challenger.id), c.challenger.is_bot()};
      }
      const ApiResult r = client_->accept_challenge(c.id);
      if (r.ok()) {
        spdlog::info("accepted challenge {} from {} ({})", c.id, c.challenger.name, what);
      } else {
        std::lock_guard lock(mutex_);
        pending_.erase(c.id);
        spdlog::warn("could not accept challenge {} from {}: {}", c.id, c.challenger.name, r.error);
        // A transient failure: when the event stream replays the challenge, try it again.
        if (r.status == ApiStatus::kServerError || r.status == ApiStatus::kNetworkError ||
            r.status == ApiStatus::kRateLimited)
          seen_challenges_.forget(c.id);
      }
      return;
    }
  }
}

}  // namespace zh::bot
