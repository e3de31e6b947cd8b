#include "bot/game/session_core.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "bot/game/game_view.h"
#include "engine/chess/notation.h"
#include "engine/util/strings.h"

namespace zh::bot {

namespace {

constexpr Millis kRethinkDelay{500};
constexpr int kMaxThinkFailures = 3;
constexpr Millis kFinalStateWait{2000};  // for the game stream's final state after gameFinish

double ms_between(TimePoint a, TimePoint b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

SessionCore::SessionCore(std::string game_id, const BotConfig& config, Env env, MoveEngine& engine,
                         Deliver deliver, std::shared_ptr<spdlog::logger> log)
    : game_id_(std::move(game_id)),
      config_(config),
      env_(std::move(env)),
      engine_(engine),
      deliver_(std::move(deliver)),
      log_(std::move(log)),
      board_("startpos", log_),
      sender_(game_id_, *env_.client, *env_.clock, log_),
      offers_(game_id_, config, *env_.client, log_),
      resign_(config),
      draw_offers_(config),
      opponent_(game_id_, config, *env_.client, *env_.clock, log_),
      chat_(game_id_, config, *env_.client, *env_.clock,
            ChatContext{env_.my_name, env_.engine_name, [this] { return eval_summary(); },
                        env_.queue, [this] { return opponent_.grant_wait(); }},
            log_),
      record_(game_id_, config, log_) {}

void SessionCore::on_event(const GameEvent& event, TimePoint received) {
  if (finished_) return;
  if (const auto* full = std::get_if<GameFull>(&event)) return on_full(*full, received);
  if (const auto* state = std::get_if<GameState>(&event)) return on_state(*state, received);
  if (const auto* line = std::get_if<ChatLine>(&event)) return chat_.on_chat(*line);
  if (const auto* gone = std::get_if<OpponentGone>(&event))
    return opponent_.on_opponent_gone(*gone);
}

void SessionCore::on_full(const GameFull& full, TimePoint received) {
  const bool first = !have_full_;
  full_ = full;
  if (lower(full.white.id) == env_.my_id) {
    our_color_ = kWhite;
  } else if (lower(full.black.id) == env_.my_id) {
    our_color_ = kBlack;
  } else {
    log_->error("we are neither White nor Black in this game; leaving it alone");
    finished_ = true;
    result_ = "aborted";
    return;
  }
  have_full_ = true;
  board_.set_initial_fen(full.initial_fen);
  opponent_.set_clockless(!full.clock_initial_ms || full.speed == "correspondence");
  const GamePlayer& opp = our_color_ == kWhite ? full.black : full.white;
  const std::string opponent_name = player_display_name(opp);
  chat_.set_opponent(opponent_name);
  opponent_is_bot_ = opp.is_bot() || opp.ai_level.has_value();
  if (full.variant != "crazyhouse")
    log_->warn("variant '{}' is not crazyhouse; playing it with crazyhouse rules would be wrong",
               full.variant);
  if (first) {
    log_->info("game vs {}{} as {}, {} {}", opponent_name, opponent_is_bot_ ? " (bot)" : "",
               our_color_ == kWhite ? "white" : "black", full.rated ? "rated" : "casual",
               full.speed);
    engine_.new_game();
  }
  on_state(full.state, received);
  // A fresh game gets the greetings; a resumed one (after a restart) does not repeat them.
  // They go out after the first search has started, so they never delay a move.
  const bool fresh = full.state.move_list().size() < 2;
  if (first && fresh && !finished_) chat_.greet();
}

bool SessionCore::our_turn() const {
  return board_.valid() && board_.game().position().side_to_move() == our_color_;
}

void SessionCore::on_state(const GameState& s, TimePoint received) {
  if (!have_full_) {
    log_->warn("gameState before gameFull; ignored");
    return;
  }
  state_ = s;
  const bool changed = s.moves != board_.moves_text() || !board_.valid();
  if (changed) {
    if (thinking_) {
      engine_.stop();  // its result is for an old position and will be discarded
      thinking_ = false;
    }
    if (!board_.update(s.moves)) return;
    sender_.board_changed(board_.plies());
  }
  if (s.finished()) return finish(s.status, s.winner);

  std::optional<OurEvaluation> eval;
  if (last_result_ && last_result_->book.empty())  // a book move carries no evaluation
    eval = OurEvaluation{last_result_->value, last_result_->mate.has_value()};
  offers_.on_state(s, our_color_, board_.game().position().fullmove_number(), eval);
  opponent_.on_board(board_.plies(), our_turn(), changed);
  if (our_turn() && !thinking_ && !rethink_at_ && sender_.may_send_for(board_.plies()))
    start_think(received);
  publish_status();
}

void SessionCore::start_think(TimePoint received) {
  stop_pondering();
  if (env_.ponder) env_.ponder->must_move(game_id_);
  ++think_id_;
  thinking_ = true;
  think_moves_ = board_.moves_text();
  line_received_ = received;
  const SearchLimits limits =
      think_limits(full_, state_, our_color_, sender_.round_trip_ms(), opponent_is_bot_, config_);
  const std::uint64_t id = think_id_;
  Deliver deliver = deliver_;
  const TimePoint call = env_.clock->now();
  engine_.think(board_.game(), limits, [deliver, id](const ThinkResult& r) { deliver(r, id); });
  before_search_ms_ = ms_between(received, call);
}

void SessionCore::think_again_later() {
  if (++think_failures_ <= kMaxThinkFailures) rethink_at_ = env_.clock->now() + kRethinkDelay;
}

void SessionCore::on_think_done(const ThinkResult& r, std::uint64_t think_id) {
  if (think_id != think_id_ || !thinking_) return;  // an answer to an old question
  thinking_ = false;
  if (finished_ || board_.moves_text() != think_moves_ || !our_turn()) return;
  if (r.move.is_null()) {
    log_->error("engine gave no move: {}", r.error.empty() ? "unknown error" : r.error);
    think_again_later();
    return;
  }
  if (!board_.game().position().is_legal(r.move)) {
    // Lichess would refuse it; our own rules say so first. The engine forgets its tree (the
    // likeliest thing to have led it astray) and thinks again.
    log_->error("engine chose {}, which is illegal in {}; thinking again from a fresh tree",
                to_uci(r.move), board_.game().position().fen());
    engine_.new_game();
    think_again_later();
    return;
  }
  think_failures_ = 0;
  last_result_ = r;
  if (env_.metrics && r.nps > 0) env_.metrics->set_nodes_per_second(double(r.nps));
  if (r.book.empty() && resign_.should_resign(board_.plies(), r.value, r.mate)) {
    const ApiResult res = env_.client->resign(game_id_);
    log_->info("resigning at value {:.3f} ({})", r.value, res.ok() ? "ok" : res.error);
    if (res.ok()) return;
  }
  const bool offer_draw =
      r.book.empty() && draw_offers_.should_offer(board_.game().position().fullmove_number(),
                                                  r.value, r.mate, opponent_is_bot_);
  if (offer_draw) log_->info("offering a draw with {} at value {:.3f}", to_uci(r.move), r.value);
  handle_sent(sender_.send(r.move, board_.plies(), offer_draw));
}

void SessionCore::handle_sent(const MoveSender::Result& sent) {
  if (sent.outcome == MoveSender::Outcome::kRefused && sent.rethink)
    rethink_at_ = env_.clock->now() + kRethinkDelay;  // if the stream has nothing new to say
  if (sent.outcome != MoveSender::Outcome::kSent || !last_result_) return;
  const ThinkResult& r = *last_result_;
  // Our overhead: opponent's move line in, our POST out, minus the search itself.
  const double search_ms = r.search_us > 0 ? r.search_us / 1000.0 : double(r.time_ms);
  const double overhead = ms_between(line_received_, sent.sent_at) - search_ms;
  if (env_.metrics) {
    env_.metrics->add_move();
    env_.metrics->observe_move_overhead_ms(std::max(0.0, overhead));
  }
  std::optional<std::int64_t> clock_after;
  if (full_.clock_initial_ms) {
    const std::int64_t ours = our_color_ == kWhite ? state_.wtime_ms : state_.btime_ms;
    clock_after = std::max<std::int64_t>(0, ours - r.time_ms) +
                  (our_color_ == kWhite ? state_.winc_ms : state_.binc_ms);
  }
  record_.note_move(board_.plies(), our_color_, r, clock_after);
  if (const auto point = eval_point(r, board_.plies() + 1)) eval_history_.push_back(*point);
  // Where it went: before engine.think() was called, from the engine's result to the POST
  // (the hand-over to this thread), and the rest inside think() (stopping the ponder search).
  const double after_ms =
      r.handed_over == TimePoint{} ? 0.0 : ms_between(r.handed_over, sent.sent_at);
  log_->debug(
      "overhead {:.3f} ms: {:.3f} ms before the search, {:.3f} ms from the engine's "
      "result to the POST, {:.3f} ms inside think()",
      overhead, before_search_ms_, after_ms, overhead - before_search_ms_ - after_ms);
  if (!r.book.empty())
    log_->info("played {} from the {} ({}; {} ms, overhead {:.2f} ms, POST {} ms)", sent.uci,
               r.book, r.book_detail, r.time_ms, std::max(0.0, overhead), sent.post_time.count());
  else
    log_->info("played {} (value {:+.3f}, {} nodes, search {} ms, overhead {:.2f} ms, POST {} ms)",
               sent.uci, r.value, r.nodes, r.time_ms, std::max(0.0, overhead),
               sent.post_time.count());
  maybe_ponder(r.move);
  publish_status();
}

void SessionCore::publish_status() {
  if (!env_.status || !have_full_ || finished_) return;
  GameViewInput in;
  in.full = &full_;
  in.state = &state_;
  in.us = our_color_;
  in.game = board_.valid() ? &board_.game() : nullptr;
  in.thinking = thinking_;
  if (last_result_) {
    in.eval = eval_point(*last_result_, eval_history_.empty() ? 0 : eval_history_.back().ply);
    in.nodes = last_result_->nodes;
    in.nps = last_result_->nps;
  }
  in.eval_history = &eval_history_;
  in.url = env_.game_url;
  in.now_unix_ms = env_.status->now_unix_ms();
  env_.status->publish_game(std::make_shared<const GameView>(make_game_view(in)));
}

void SessionCore::maybe_ponder(Move our_move) {
  if (!env_.ponder || !env_.ponder->may_ponder(opponent_is_bot_)) return;
  Game after = board_.game();
  after.play(our_move);  // legal: the engine chose it in this very position
  engine_.ponder(after);
  MoveEngine* engine = &engine_;
  env_.ponder->pondering(game_id_, [engine] { engine->stop(); });
}

void SessionCore::stop_pondering() {
  if (env_.ponder) env_.ponder->stopped_pondering(game_id_);
}

void SessionCore::tick() {
  if (finished_ || !have_full_) return;
  const TimePoint now = env_.clock->now();
  const bool unchanged = our_turn() && board_.moves_text() == think_moves_;
  if (auto sent = sender_.tick(board_.plies(), unchanged)) handle_sent(*sent);
  if (rethink_at_ && now >= *rethink_at_) {
    rethink_at_.reset();
    if (our_turn() && !thinking_ && !sender_.sent_for(board_.plies())) start_think(now);
  }
  if (pending_finish_ && now >= pending_finish_->due) {
    const PendingFinish f = *pending_finish_;
    return finish(f.status, f.winner);
  }
  opponent_.tick(board_.plies(), our_turn());
}

EvalSummary SessionCore::eval_summary() const {
  EvalSummary e;
  if (!last_result_ || !last_result_->book.empty()) return e;  // no evaluation from a book move
  e.available = true;
  e.eval_pawns = last_result_->cp / 100.0;
  e.mate = last_result_->mate;
  e.nodes = last_result_->nodes;
  e.nps = last_result_->nps;
  e.best_move_san = last_result_->best_san;
  return e;
}

void SessionCore::finish(const std::string& status, const std::string& winner) {
  if (finished_) return;
  finished_ = true;
  thinking_ = false;
  sender_.cancel();
  opponent_.cancel();
  stop_pondering();
  engine_.stop();
  const std::string ours = our_color_ == kWhite ? "white" : "black";
  if (status == "aborted" || status == "noStart")
    result_ = "aborted";
  else if (winner.empty())
    result_ = "draw";
  else
    result_ = winner == ours ? "win" : "loss";
  log_->info("game over: {} ({}{}{})", result_, status, winner.empty() ? "" : ", winner ", winner);
  if (env_.metrics) env_.metrics->add_game_result(result_);
  if (env_.status) env_.status->end_game(game_id_, result_);
  if (result_ != "aborted" && have_full_) {
    chat_.goodbye();
    if (board_.valid()) pgn_path_ = record_.save(full_, board_.moves(), status, winner);
  }
}

void SessionCore::on_game_finished(const GameInfo& info) {
  if (finished_) return;
  // The final gameState normally arrives first; this covers a game stream that is gone. When
  // the event stream is ahead of the game stream (its lastMove is not on our board yet), give
  // the final state a moment to arrive so the PGN holds every move.
  if (!have_full_ || info.status.empty() || info.status == "started" || info.status == "created")
    return;
  const std::vector<std::string>& moves = board_.moves();
  const bool board_complete =
      info.last_move.empty() || (!moves.empty() && moves.back() == info.last_move);
  if (board_complete) return finish(info.status, info.winner);
  pending_finish_ = PendingFinish{info.status, info.winner, env_.clock->now() + kFinalStateWait};
}

void SessionCore::abandon_locally() {
  if (finished_) return;
  finished_ = true;
  result_.clear();
  if (env_.status) env_.status->drop_game(game_id_);
  stop_pondering();
  engine_.stop();
  log_->info("leaving the game for now (shutdown); lichess keeps it and a restart resumes it");
}

}  // namespace zh::bot
