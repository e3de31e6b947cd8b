#include "bot/game/session_core.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "engine/chess/notation.h"
#include "engine/util/strings.h"

namespace zh::bot {

namespace {

constexpr Millis kMoveRetryDelay{400};  // lets the stream show whether the POST landed
constexpr int kQuickMoveAttempts = 3;
constexpr Millis kSlowMoveRetryDelay{1500};
constexpr int kMaxRejections = 2;  // 400s for one ply before we stop insisting
constexpr Millis kRethinkDelay{500};
constexpr int kMaxThinkFailures = 3;
constexpr Millis kClaimRetryDelay{2000};
constexpr Millis kFinalStateWait{2000};  // for the game stream's final state after gameFinish
constexpr Millis kUntimedMoveMs{10000};  // per move in untimed games (correspondence, unlimited)

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
      chat_limiter_(*env_.clock, Millis(config.chat_min_interval_ms)) {}

void SessionCore::on_event(const GameEvent& event, TimePoint received) {
  if (finished_) return;
  if (const auto* full = std::get_if<GameFull>(&event)) return on_full(*full, received);
  if (const auto* state = std::get_if<GameState>(&event)) return on_state(*state, received);
  if (const auto* chat = std::get_if<ChatLine>(&event)) return on_chat(*chat);
  if (const auto* gone = std::get_if<OpponentGone>(&event)) return on_opponent_gone(*gone);
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
  const GamePlayer& opp = our_color_ == kWhite ? full.black : full.white;
  opponent_name_ = opp.ai_level ? "Stockfish level " + std::to_string(*opp.ai_level) : opp.name;
  opponent_is_bot_ = opp.is_bot() || opp.ai_level.has_value();
  if (full.variant != "crazyhouse")
    log_->warn("variant '{}' is not crazyhouse; playing it with crazyhouse rules would be wrong",
               full.variant);
  if (first) {
    log_->info("game vs {}{} as {}, {} {}", opponent_name_, opponent_is_bot_ ? " (bot)" : "",
               our_color_ == kWhite ? "white" : "black", full.rated ? "rated" : "casual",
               full.speed);
    engine_.new_game(!opponent_is_bot_ && config_.human_opening_temperature);
  }
  on_state(full.state, received);
  // A fresh game gets the greetings; a resumed one (after a restart) does not repeat them.
  // They go out after the first search has started, so they never delay a move.
  const bool fresh = full.state.move_list().size() < 2;
  if (first && fresh && !greeted_ && !finished_) {
    greeted_ = true;
    say(ChatRoom::kPlayer, fill_template(config_.chat.greeting, env_.my_name, opponent_name_),
        false);
    say(ChatRoom::kSpectator,
        fill_template(config_.chat.greeting_spectators, env_.my_name, opponent_name_), false);
  }
}

bool SessionCore::rebuild(const std::string& moves_text) {
  GameState parsed;
  parsed.moves = moves_text;
  const std::vector<std::string> moves = parsed.move_list();
  // Usually the new list extends the old one by a move or two: play only those (replaying
  // the whole game costs a legality check per ply). Anything else rebuilds from the start.
  const bool extends = position_valid_ && moves.size() >= moves_.size() &&
                       std::equal(moves_.begin(), moves_.end(), moves.begin());
  try {
    Game game = extends ? game_
                        : Game(full_.initial_fen == "startpos" || full_.initial_fen.empty()
                                   ? Position()
                                   : Position::from_fen(full_.initial_fen));
    for (std::size_t i = extends ? moves_.size() : 0; i < moves.size(); ++i) {
      try {
        game.play_uci(moves[i]);
      } catch (const MoveError& e) {
        log_->error(
            "server move {} '{}' is rejected by our rules ({}); waiting for the next "
            "state to resynchronise",
            i + 1, moves[i], e.what());
        position_valid_ = false;
        return false;
      }
    }
    game_ = std::move(game);
  } catch (const std::exception& e) {
    log_->error("cannot set up the game from '{}': {}", full_.initial_fen, e.what());
    position_valid_ = false;
    return false;
  }
  if (int(moves.size()) <= posted_ply_) posted_ply_ = int(moves.size()) - 1;  // takeback
  moves_ = moves;
  moves_text_ = moves_text;
  position_valid_ = true;
  return true;
}

bool SessionCore::our_turn() const {
  return position_valid_ && game_.position().side_to_move() == our_color_;
}

void SessionCore::on_state(const GameState& s, TimePoint received) {
  if (!have_full_) {
    log_->warn("gameState before gameFull; ignored");
    return;
  }
  state_ = s;
  const bool changed = s.moves != moves_text_ || !position_valid_;
  if (changed) {
    if (thinking_) {
      engine_.stop();  // its result is for an old position and will be discarded
      thinking_ = false;
    }
    if (!rebuild(s.moves)) return;
    if (retry_ && int(moves_.size()) > retry_->ply) retry_.reset();  // the POST had landed
    opponent_turn_since_.reset();
  }
  if (s.finished()) return finish(s.status, s.winner);

  answer_offers(s);
  const int ply = int(moves_.size());
  if (!our_turn()) {
    if (ply < 2 && !opponent_turn_since_) opponent_turn_since_ = env_.clock->now();
    return;
  }
  if (!thinking_ && posted_ply_ != ply && !retry_ && !rethink_at_ &&
      !(rejected_ply_ == ply && rejections_ >= kMaxRejections))
    start_think(received);
}

void SessionCore::answer_offers(const GameState& s) {
  // Each offer is answered once; the flag clears when the server stops showing the offer.
  const bool opponent_offers_draw = our_color_ == kWhite ? s.bdraw : s.wdraw;
  if (!opponent_offers_draw) draw_offer_answered_ = false;
  if (opponent_offers_draw && !draw_offer_answered_) {
    draw_offer_answered_ = true;
    const int full_move = game_.position().fullmove_number();
    const bool level = last_result_ && !last_result_->mate &&
                       std::fabs(last_result_->value) <= config_.draw_value_threshold;
    const bool accept = config_.accept_draws && full_move >= config_.draw_min_moves && level;
    const ApiResult r = env_.client->answer_draw(game_id_, accept);
    log_->info("draw offer {} ({})", accept ? "accepted" : "declined", r.ok() ? "ok" : r.error);
  }
  const bool opponent_takeback = our_color_ == kWhite ? s.btakeback : s.wtakeback;
  if (!opponent_takeback) takeback_offer_answered_ = false;
  if (opponent_takeback && !takeback_offer_answered_) {
    takeback_offer_answered_ = true;
    const bool accept = takebacks_given_ < config_.takebacks_accepted;
    if (accept) ++takebacks_given_;
    const ApiResult r = env_.client->answer_takeback(game_id_, accept);
    log_->info("takeback request {} ({})", accept ? "accepted" : "declined",
               r.ok() ? "ok" : r.error);
  }
}

std::int64_t SessionCore::our_clock_ms() const {
  return our_color_ == kWhite ? state_.wtime_ms : state_.btime_ms;
}

void SessionCore::start_think(TimePoint received) {
  stop_pondering();
  if (env_.ponder) env_.ponder->must_move(game_id_);
  ++think_id_;
  thinking_ = true;
  think_moves_ = moves_text_;
  line_received_ = received;
  SearchLimits limits;
  if (full_.clock_initial_ms) {
    // The POST round trip is time the server charges us: leave it on the clock.
    const auto rtt = std::int64_t(std::llround(rtt_ms_));
    limits.wtime = std::max<std::int64_t>(1, state_.wtime_ms - (our_color_ == kWhite ? rtt : 0));
    limits.btime = std::max<std::int64_t>(1, state_.btime_ms - (our_color_ == kBlack ? rtt : 0));
    limits.winc = state_.winc_ms;
    limits.binc = state_.binc_ms;
  } else {
    limits.movetime = kUntimedMoveMs.count();
  }
  limits.human_opponent = !opponent_is_bot_;
  limits.min_think_ms = opponent_is_bot_ ? 0 : config_.human_min_think_ms;
  const std::uint64_t id = think_id_;
  Deliver deliver = deliver_;
  const TimePoint call = env_.clock->now();
  engine_.think(game_, limits, [deliver, id](const ThinkResult& r) { deliver(r, id); });
  before_search_ms_ = ms_between(received, call);
}

void SessionCore::on_think_done(const ThinkResult& r, std::uint64_t think_id) {
  if (think_id != think_id_ || !thinking_) return;  // an answer to an old question
  thinking_ = false;
  if (finished_ || moves_text_ != think_moves_ || !our_turn()) return;
  if (r.move.is_null()) {
    log_->error("engine gave no move: {}", r.error.empty() ? "unknown error" : r.error);
    if (++think_failures_ <= kMaxThinkFailures) rethink_at_ = env_.clock->now() + kRethinkDelay;
    return;
  }
  think_failures_ = 0;
  last_result_ = r;
  if (env_.metrics && r.nps > 0) env_.metrics->set_nodes_per_second(double(r.nps));

  const int ply = int(moves_.size());
  if (config_.resign && ply >= 2) {
    low_value_streak_ =
        (r.value <= config_.resign_value || (r.mate && *r.mate < 0)) ? low_value_streak_ + 1 : 0;
    if (low_value_streak_ >= config_.resign_moves) {
      const ApiResult res = env_.client->resign(game_id_);
      log_->info("resigning at value {:.3f} ({})", r.value, res.ok() ? "ok" : res.error);
      if (res.ok()) return;
    }
  }
  post_move(r.move, r);
}

void SessionCore::post_move(Move move, const ThinkResult& r) {
  const int ply = int(moves_.size());
  const std::string uci = to_uci(move, CastlingNotation::kKingToRook);  // lichess's form
  if (posted_ply_ == ply) {
    log_->warn("a move for ply {} was already sent; not sending {}", ply, uci);
    return;
  }
  const TimePoint send = env_.clock->now();
  const ApiResult res = env_.client->move(game_id_, uci);
  if (res.ok()) {
    posted_ply_ = ply;
    retry_.reset();
    ++moves_sent_;
    // Our overhead: opponent's move line in, our POST out, minus the search itself.
    const double search_ms = r.search_us > 0 ? r.search_us / 1000.0 : double(r.time_ms);
    const double overhead = ms_between(line_received_, send) - search_ms;
    rtt_ms_ = rtt_ms_ == 0 ? double(res.elapsed.count())
                           : 0.8 * rtt_ms_ + 0.2 * double(res.elapsed.count());
    if (env_.metrics) {
      env_.metrics->add_move();
      env_.metrics->observe_move_overhead_ms(std::max(0.0, overhead));
    }
    PgnMoveNote note;
    const int sign = our_color_ == kWhite ? 1 : -1;
    if (r.mate)
      note.eval_mate = sign * *r.mate;
    else
      note.eval_cp = sign * r.cp;
    if (full_.clock_initial_ms)
      note.clock_ms = std::max<std::int64_t>(0, our_clock_ms() - r.time_ms) +
                      (our_color_ == kWhite ? state_.winc_ms : state_.binc_ms);
    if (int(notes_.size()) <= ply) notes_.resize(ply + 1);
    notes_[ply] = note;
    log_->debug("overhead {:.3f} ms: {:.3f} ms before the search started, the rest after it",
                overhead, before_search_ms_);
    log_->info("played {} (value {:+.3f}, {} nodes, search {} ms, overhead {:.2f} ms, POST {} ms)",
               uci, r.value, r.nodes, r.time_ms, std::max(0.0, overhead), res.elapsed.count());
    maybe_ponder(move);
    return;
  }
  // A move that did not land is never given up while the game runs: a dropped move is a game
  // lost on time.
  const int retry_attempts = retry_ && retry_->ply == ply ? retry_->attempts : 0;
  auto retry_in = [&](Millis delay, int attempts) {
    retry_ = Retry{move, r, ply, env_.clock->now() + delay, attempts};
  };
  switch (res.status) {
    case ApiStatus::kNetworkError:
    case ApiStatus::kServerError: {
      // The move may or may not have landed: the retry looks at the stream before sending it
      // again. Quick retries first, then slower ones so a server in trouble is not hammered.
      const int attempts = retry_attempts + 1;
      log_->warn("move {} not confirmed ({}); checking the stream before retry {}", uci, res.error,
                 attempts);
      retry_in(attempts < kQuickMoveAttempts ? kMoveRetryDelay : kSlowMoveRetryDelay, attempts);
      return;
    }
    case ApiStatus::kRateLimited: {
      // Lichess did not take the move: send it again the moment the pause it asked for is over.
      const Millis pause = std::max(env_.client->rate_limits().remaining("move"), Millis(1));
      log_->warn("move {} rate limited ({}); sending it again in {} ms", uci, res.error,
                 pause.count());
      retry_in(pause, retry_attempts + 1);
      return;
    }
    case ApiStatus::kClientError:
      // Not our turn or not legal at the server: the stream will tell us the real position.
      rejected_ply_ == ply ? ++rejections_ : (rejected_ply_ = ply, rejections_ = 1);
      log_->error("move {} refused ({}); resynchronising from the game stream", uci, res.error);
      // If the stream has nothing new to say, think again (bounded by kMaxRejections).
      if (rejections_ < kMaxRejections) rethink_at_ = env_.clock->now() + kRethinkDelay;
      return;
    default:
      log_->error("move {} not sent: {}", uci, res.error);
      return;
  }
}

void SessionCore::maybe_ponder(Move our_move) {
  if (!env_.ponder || !env_.ponder->may_ponder(opponent_is_bot_)) return;
  Game after = game_;
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
  if (retry_ && now >= retry_->due) {
    Retry retry = *retry_;
    if (int(moves_.size()) == retry.ply && our_turn() && moves_text_ == think_moves_) {
      log_->info("move {} still not on the board; sending it again", to_uci(retry.move));
      retry_->attempts = retry.attempts;
      post_move(retry.move, retry.result);
    } else {
      retry_.reset();
    }
  }
  if (rethink_at_ && now >= *rethink_at_) {
    rethink_at_.reset();
    if (our_turn() && !thinking_ && posted_ply_ != int(moves_.size())) start_think(now);
  }
  if (!abort_sent_ && opponent_turn_since_ && moves_.size() < 2 && !our_turn() &&
      now - *opponent_turn_since_ >= std::chrono::seconds(config_.abort_time_s)) {
    abort_sent_ = true;
    const ApiResult r = env_.client->abort_game(game_id_);
    log_->info("opponent made no first move in {} s: abort ({})", config_.abort_time_s,
               r.ok() ? "ok" : r.error);
  }
  if (pending_finish_ && now >= pending_finish_->due) {
    const PendingFinish f = *pending_finish_;
    return finish(f.status, f.winner);
  }
  if (claim_at_ && now >= *claim_at_) {
    claim_at_.reset();
    const ApiResult r = env_.client->claim_victory(game_id_);
    log_->info("opponent left: claiming victory ({})", r.ok() ? "ok" : r.error);
    if (!r.ok() && ++claim_attempts_ < 3) claim_at_ = now + kClaimRetryDelay;
  }
}

void SessionCore::on_opponent_gone(const OpponentGone& gone) {
  if (!gone.gone) {
    if (claim_at_) log_->info("opponent is back");
    claim_at_.reset();
    return;
  }
  if (!config_.claim_victory || !gone.claim_win_in_seconds) return;
  claim_attempts_ = 0;
  // A little margin: claiming a moment too early is refused.
  claim_at_ = env_.clock->now() + std::chrono::seconds(*gone.claim_win_in_seconds) + Millis(250);
  log_->info("opponent gone; victory claimable in {} s", *gone.claim_win_in_seconds);
}

void SessionCore::on_chat(const ChatLine& line) {
  if (!config_.chat_commands) return;
  ChatContext context;
  context.me = env_.my_name;
  context.engine_name = env_.engine_name;
  context.eval = [this] { return eval_summary(); };
  if (auto reply = answer_chat(line, context))
    say(line.room == "spectator" ? ChatRoom::kSpectator : ChatRoom::kPlayer, *reply, true);
}

EvalSummary SessionCore::eval_summary() const {
  EvalSummary e;
  if (!last_result_) return e;
  e.available = true;
  e.eval_pawns = last_result_->cp / 100.0;
  e.mate = last_result_->mate;
  e.nodes = last_result_->nodes;
  e.nps = last_result_->nps;
  e.best_move_san = last_result_->best_san;
  return e;
}

void SessionCore::say(ChatRoom room, const std::string& text, bool rate_limited) {
  if (text.empty()) return;
  const char* room_name = room == ChatRoom::kPlayer ? "player" : "spectator";
  if (!chat_limiter_.allow(room_name) && rate_limited) return;
  const ApiResult r = env_.client->chat(game_id_, room, text);
  if (!r.ok()) log_->warn("chat to {} failed: {}", room_name, r.error);
}

void SessionCore::finish(const std::string& status, const std::string& winner) {
  if (finished_) return;
  finished_ = true;
  thinking_ = false;
  retry_.reset();
  claim_at_.reset();
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
  if (result_ != "aborted" && have_full_) {
    say(ChatRoom::kPlayer, fill_template(config_.chat.goodbye, env_.my_name, opponent_name_),
        false);
    say(ChatRoom::kSpectator,
        fill_template(config_.chat.goodbye_spectators, env_.my_name, opponent_name_), false);
    save_pgn_file(status, winner);
  }
}

void SessionCore::save_pgn_file(const std::string& status, const std::string& winner) {
  if (config_.pgn_dir.empty() || !position_valid_) return;
  PgnGame g;
  g.game_id = game_id_;
  if (config_.base_url.find("lichess.org") == std::string::npos) g.site_base = config_.base_url;
  g.rated = full_.rated;
  g.start_time_ms = full_.created_at_ms;
  g.white = full_.white.ai_level ? "Stockfish level " + std::to_string(*full_.white.ai_level)
                                 : full_.white.name;
  g.black = full_.black.ai_level ? "Stockfish level " + std::to_string(*full_.black.ai_level)
                                 : full_.black.name;
  g.white_title = full_.white.title;
  g.black_title = full_.black.title;
  g.white_elo = full_.white.rating;
  g.black_elo = full_.black.rating;
  g.clock_initial_ms = full_.clock_initial_ms;
  g.clock_increment_ms = full_.clock_increment_ms;
  g.initial_fen = full_.initial_fen;
  g.uci_moves = moves_;
  g.notes = notes_;
  g.status = status;
  g.winner = winner;
  try {
    pgn_path_ = save_pgn(config_.pgn_dir, g);
    log_->info("PGN saved to {}", pgn_path_->string());
  } catch (const std::exception& e) {
    log_->error("PGN not saved: {}", e.what());
  }
}

void SessionCore::on_game_finished(const GameInfo& info) {
  if (finished_) return;
  // The final gameState normally arrives first; this covers a game stream that is gone. When
  // the event stream is ahead of the game stream (its lastMove is not on our board yet), give
  // the final state a moment to arrive so the PGN holds every move.
  if (!have_full_ || info.status.empty() || info.status == "started" || info.status == "created")
    return;
  const bool board_complete =
      info.last_move.empty() || (!moves_.empty() && moves_.back() == info.last_move);
  if (board_complete) return finish(info.status, info.winner);
  pending_finish_ = PendingFinish{info.status, info.winner, env_.clock->now() + kFinalStateWait};
}

void SessionCore::abandon_locally() {
  if (finished_) return;
  finished_ = true;
  result_.clear();
  stop_pondering();
  engine_.stop();
  log_->info("leaving the game for now (shutdown); lichess keeps it and a restart resumes it");
}

}  // namespace zh::bot
