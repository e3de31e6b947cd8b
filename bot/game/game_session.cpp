#include "bot/game/game_session.h"

#include <chrono>

#include "bot/logging/log_setup.h"

namespace zh::bot {

namespace {
constexpr auto kTick = std::chrono::milliseconds(100);
}

GameSession::GameSession(std::string game_id, Deps deps, std::unique_ptr<MoveEngine> engine)
    : game_id_(std::move(game_id)),
      deps_(std::move(deps)),
      engine_(std::move(engine)),
      log_(game_logger(game_id_)) {
  SessionCore::Env env;
  env.client = deps_.client;
  env.clock = deps_.clock;
  env.metrics = deps_.metrics;
  env.ponder = deps_.ponder;
  env.my_id = deps_.my_id;
  env.my_name = deps_.my_name;
  env.engine_name = engine_->description();
  env.queue = deps_.queue;
  env.status = deps_.status;
  env.game_url = deps_.game_url;
  core_ = std::make_unique<SessionCore>(
      game_id_, *deps_.config, env, *engine_,
      // Engine results arrive on the engine's search thread; the move is sent from this
      // session's worker, so the engine's thread never waits on the network.
      [this](const ThinkResult& r, std::uint64_t id) {
        ThinkResult result = r;
        result.handed_over = deps_.clock->now();
        post([this, result = std::move(result), id] { core_->on_think_done(result, id); });
      },
      log_);
}

GameSession::~GameSession() {
  shutdown();
  if (worker_.joinable()) worker_.join();
  if (stream_.joinable()) stream_.join();
}

void GameSession::start() {
  worker_ = std::thread([this] { worker_loop(); });
  stream_ = std::thread([this] { stream_loop(); });
}

void GameSession::post(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    tasks_.push_back(std::move(task));
  }
  cv_.notify_one();
}

void GameSession::game_finished(const GameInfo& info) {
  post([this, info] { core_->on_game_finished(info); });
}

void GameSession::shutdown() {
  stop_requested_ = true;
  cv_.notify_one();
}

void GameSession::worker_loop() {
  for (;;) {
    std::deque<std::function<void()>> batch;
    {
      std::unique_lock lock(mutex_);
      cv_.wait_for(lock, kTick, [this] { return !tasks_.empty() || stop_requested_.load(); });
      batch.swap(tasks_);
    }
    try {
      for (auto& task : batch) task();
      if (stop_requested_ && !core_->finished()) core_->abandon_locally();
      core_->tick();
    } catch (const std::exception& e) {
      // Never lose the game to a bug in one handler: log and carry on.
      log_->error("session error: {}", e.what());
    }
    if (core_->finished()) break;
  }
  stream_cancel_.cancel();
  engine_->stop();
  done_ = true;
}

void GameSession::stream_loop() {
  StreamOptions options;
  options.endpoint = "stream-game";
  options.path = LichessClient::game_stream_path(game_id_);
  options.idle_timeout = std::chrono::seconds(deps_.config->stream_idle_timeout_s);
  // A running game must not wait: reopen almost at once, and never wait long.
  options.backoff = BackoffParams{Millis(250), Millis(5000), 2.0, 0.25};
  StreamRunner runner(*deps_.http, deps_.client->rate_limits(), *deps_.clock, deps_.random,
                      options);
  StreamCallbacks callbacks;
  callbacks.on_line = [this](std::string_view line) {
    const TimePoint received = deps_.clock->now();
    std::string error;
    auto event = parse_game_event(line, error);
    if (!event) {
      log_->warn("skipping game stream line: {}", error);
      return true;
    }
    // After the final state the server closes the stream: stop here instead of reopening.
    const GameState* state = std::get_if<GameState>(&*event);
    if (const auto* full = std::get_if<GameFull>(&*event)) state = &full->state;
    const bool final_state = state != nullptr && state->finished();
    post([this, ev = std::move(*event), received] { core_->on_event(ev, received); });
    return !final_state && !done_.load();
  };
  callbacks.on_disconnected = [this](const StreamResult& r, Millis delay) {
    if (done_) return;  // the server closes the stream after the game: expected
    if (deps_.metrics) deps_.metrics->add_stream_reconnect("game");
    log_->info("game stream ended ({}{}); reopening in {} ms",
               r.status ? "HTTP " + std::to_string(r.status) : std::string("no response"),
               r.error.empty() ? "" : ", " + r.error, delay.count());
  };
  const StreamStop stop = runner.run(callbacks, stream_cancel_);
  if (stop == StreamStop::kNotFound || stop == StreamStop::kUnauthorized ||
      stop == StreamStop::kClientError) {
    log_->error("game stream refused ({}: {}); leaving this game", std::string(to_string(stop)),
                error_text(runner.last_result().body));
    post([this] { core_->abandon_locally(); });
  }
}

}  // namespace zh::bot
