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
#include "bot/status/pgn_history.h"
#include "bot/status/status_json.h"
#include "bot/status/status_page.h"
#include "engine/util/strings.h"

namespace zh::bot {

namespace {

constexpr auto kMainLoopSleep = std::chrono::milliseconds(200);
constexpr auto kStatusInterval = std::chrono::seconds(5);  // systemd STATUS= refresh

}  // namespace

Daemon::Daemon(const BotConfig& config, std::string token, EngineFactory make_engine, Clock& clock)
    : config_(config),
      clock_(clock),
      make_engine_(std::move(make_engine)),
      ledger_(StateFile(resolve_state_dir(config.state_dir, std::getenv("STATE_DIRECTORY"))),
              clock) {
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
  ChallengeDesk::Deps desk;
  desk.client = client_.get();
  desk.clock = &clock_;
  desk.metrics = &metrics_;
  desk.sessions = &sessions_;
  desk.ledger = &ledger_;
  desk.random = default_random_source();
  desk.status = &status_;
  desk_ = std::make_unique<ChallengeDesk>(config_, std::move(desk));
  desk_->decline_later_while("shutting down", [this] { return draining_.load(); });
  // A failing GPU: running games go on with the fallback evaluator, new ones wait for it.
  desk_->decline_later_while("the evaluator's device is failing",
                             [this] { return !metrics_.evaluator_healthy(); });
}

Daemon::~Daemon() {
  cancel_.cancel();
  desk_->stop();
  sessions_.shutdown_all();
  sessions_.take_all().clear();  // joins each session's threads
}

void Daemon::request_shutdown() {
  if (draining_.exchange(true)) return;
  status_.set_draining();
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
  status_.set_account(account_.username, account_.title, account_.crazyhouse_rating);
  spdlog::info("logged in to {} as {} (BOT)", describe_url(config_.base_url), account_.username);
  return kExitOk;
}

std::vector<std::string> Daemon::bots_among(const std::vector<std::string>& opponent_ids) {
  std::vector<std::string> ids;
  for (const auto& id : opponent_ids)
    if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  if (ids.empty()) return {};  // the lichess AI: never a BOT account
  std::vector<std::string> bots;
  const ApiResult r = client_->get_bots_among(ids, bots);
  if (r.ok()) return bots;
  std::string names;
  for (const auto& id : ids) names += (names.empty() ? "" : ", ") + id;
  spdlog::warn(
      "could not ask lichess which of {} are bots ({}); counting them as bots until their "
      "games end",
      names, r.error);
  return ids;
}

void Daemon::resume_ongoing_games() {
  std::vector<OngoingGame> games;
  const ApiResult r = client_->get_playing(games);
  if (!r.ok()) {
    // Not fatal: the event stream replays gameStart for every ongoing game as well.
    spdlog::warn("could not list ongoing games ({}); relying on the event stream", r.error);
    return;
  }
  std::erase_if(games, [](const OngoingGame& g) {
    if (g.variant.empty() || g.variant == "crazyhouse") return false;
    spdlog::warn("ongoing game {} is {}, not crazyhouse; not resuming it", g.game_id, g.variant);
    return true;
  });
  // lichess's list of ongoing games does not say whether the opponent is a bot; its users'
  // status does, for all of them in one request.
  std::vector<std::string> opponents;
  for (const auto& g : games) opponents.push_back(lower(g.opponent.id));
  const std::vector<std::string> bots = bots_among(opponents);
  for (const auto& g : games) {
    const std::string opponent = lower(g.opponent.id);
    const bool bot = std::find(bots.begin(), bots.end(), opponent) != bots.end();
    spdlog::info("resuming ongoing game {} vs {} ({})", g.game_id, g.opponent.username,
                 bot ? "a bot" : "not a bot");
    start_session(g.game_id, opponent, bot);
  }
}

void Daemon::serve_status_pages() {
  health_->add_page("/status.json", "application/json", [this] {
    StatusSnapshot snapshot = status_.snapshot();
    snapshot.version = ZH_VERSION;
    return status_json(snapshot).dump();
  });
  health_->add_page("/status", "text/html; charset=utf-8",
                    [] { return std::string(status_page_html()); });
}

int Daemon::run() {
  if (config_.metrics_port > 0) {
    health_ = std::make_unique<HealthServer>(metrics_, int(config_.metrics_port));
    serve_status_pages();
    health_->start();
    spdlog::info(
        "health and metrics on http://127.0.0.1:{}/healthz and /metrics, status page on /status",
        health_->port());
  }
  if (const int rc = check_account(); rc != kExitOk) return rc;
  desk_->set_account(account_);
  if (!config_.pgn_dir.empty()) {  // the page's finished games and rating chart from earlier runs
    const PgnHistory history =
        read_pgn_history(config_.pgn_dir, account_.username, StatusBoard::kMaxRatingPoints);
    status_.restore_history(history.finished, history.ratings);
  }
  ledger_.restore();
  metrics_.set_bot_games_24h(ledger_.bot_games_last_24h());
  resume_ongoing_games();
  std::thread events([this] { event_loop(); });

  std::optional<TimePoint> drain_deadline;
  std::string last_status;
  auto next_status = clock_.now();
  while (!immediate_) {
    // The watchdog is fed only by a loop that still turns: reap_sessions takes the lock the
    // event handlers take, so a deadlock there starves it and systemd restarts the bot.
    systemd_.watchdog_tick();
    reap_sessions();
    desk_->tick();
    if (ready_sent_ && !draining_ && clock_.now() >= next_status) {
      next_status = clock_.now() + kStatusInterval;
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
      const int running = sessions_.running();
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
    clock_.sleep_for(kMainLoopSleep, cancel_);
  }
  if (immediate_ && !fatal_)
    spdlog::warn("leaving at once; running games resume on the next start");
  if (!draining_) systemd_.stopping();
  cancel_.cancel();
  desk_->stop();
  sessions_.shutdown_all();
  events.join();
  sessions_.take_all().clear();
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
    status_.stream_connected();
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
    const std::string detail = std::string(why) +
                               (r.status ? ", HTTP " + std::to_string(r.status) : std::string()) +
                               (r.error.empty() ? "" : ", " + r.error);
    status_.stream_lost("event stream lost: " + detail);
    spdlog::warn("event stream lost ({}); reconnecting in {:.1f} s", detail,
                 delay.count() / 1000.0);
  };
  const StreamStop stop = runner.run(callbacks, cancel_);
  metrics_.set_event_stream_connected(false);
  if (stop == StreamStop::kCancelled) return;
  status_.stream_lost("the event stream was refused: " + std::string(to_string(stop)));
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
  if (const auto* e = std::get_if<ChallengeEvent>(&*event))
    return desk_->on_challenge(e->challenge);
  if (const auto* e = std::get_if<ChallengeCanceledEvent>(&*event))
    return desk_->on_challenge_canceled(e->challenge);
  if (const auto* e = std::get_if<ChallengeDeclinedEvent>(&*event))
    return desk_->on_challenge_declined(e->challenge);
}

void Daemon::on_game_start(const GameInfo& game) {
  if (sessions_.finished(game.game_id)) return;
  if (!game.compat_bot) {
    spdlog::warn("game {} cannot be played with the Bot API; ignoring it", game.game_id);
    return;
  }
  if (!game.variant.empty() && game.variant != "crazyhouse") {
    spdlog::error("game {} is {}, not crazyhouse; zhbot only plays crazyhouse and leaves it alone",
                  game.game_id, game.variant);
    return;
  }
  // The desk settles the challenge the game came from (and counts a bot game in the ledger).
  bool known = false;
  bool bot = desk_->on_game_start(game, &known);
  // A game the desk did not start is one from before a restart that the listing missed: lichess
  // says whether its opponent is a bot (gameStart does not).
  if (!known && !sessions_.contains(game.game_id))
    bot = !bots_among({lower(game.opponent.id)}).empty();
  start_session(game.game_id, lower(game.opponent.id), bot);
}

void Daemon::on_game_finish(const GameInfo& game) {
  desk_->on_game_finish(game.game_id);
  sessions_.on_game_finish(game);
  if (game.rating_diff) status_.note_rating_diff(game.game_id, *game.rating_diff);
}

void Daemon::start_session(const std::string& game_id, const std::string& opponent_id, bool bot) {
  if (!is_valid_id(game_id)) {
    spdlog::warn("ignoring a game with an invalid id");
    return;
  }
  const bool started = sessions_.start(game_id, opponent_id, bot, [&] {
    std::unique_ptr<MoveEngine> engine;
    try {
      engine = make_engine_();
    } catch (const std::exception& e) {
      spdlog::error("game {}: no engine ({}); the game is left to lichess", game_id, e.what());
      return std::unique_ptr<GameSession>();
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
    deps.queue = [this](const std::string& user) {
      return QueueView{desk_->waiting(), desk_->place_of(user)};
    };
    deps.status = &status_;
    deps.game_url = config_.base_url + "/" + game_id;
    auto session = std::make_unique<GameSession>(game_id, std::move(deps), std::move(engine));
    session->start();
    return session;
  });
  if (!started) return;  // replayed gameStart: already playing it, or already over
  const int n = sessions_.size();
  metrics_.set_games_active(n);
  ponder_->set_games_running(n);
}

void Daemon::reap_sessions() {
  auto done = sessions_.take_done();
  if (done.empty()) return;
  const int n = sessions_.size();
  metrics_.set_games_active(n);
  ponder_->set_games_running(n);
  done.clear();  // joins outside the table's lock
  // A finished game frees its search tree (often hundreds of MiB); glibc keeps such memory in
  // its per-thread arenas unless asked to return it, and a daemon that runs for weeks should
  // show its real footprint between games.
  malloc_trim(0);
}

}  // namespace zh::bot
