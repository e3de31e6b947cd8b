#include "bot/game/move_sender.h"

#include <algorithm>

#include "engine/chess/notation.h"

namespace zh::bot {

MoveSender::MoveSender(std::string game_id, LichessClient& client, Clock& clock,
                       std::shared_ptr<spdlog::logger> log)
    : game_id_(std::move(game_id)), client_(client), clock_(clock), log_(std::move(log)) {}

bool MoveSender::may_send_for(int ply) const {
  return posted_ply_ != ply && !retry_ && !(rejected_ply_ == ply && rejections_ >= kMaxRejections);
}

void MoveSender::board_changed(int plies) {
  if (plies <= posted_ply_) posted_ply_ = plies - 1;  // a takeback
  if (retry_ && plies > retry_->ply) retry_.reset();  // the POST had landed
}

MoveSender::Result MoveSender::send(Move move, int ply, bool offer_draw) {
  Result result;
  result.uci = to_uci(move, CastlingNotation::kKingToRook);  // lichess's form
  if (posted_ply_ == ply) {
    log_->warn("a move for ply {} was already sent; not sending {}", ply, result.uci);
    result.outcome = Outcome::kAlreadySent;
    return result;
  }
  result.sent_at = clock_.now();
  const ApiResult res =
      client_.move(game_id_, result.uci, offer_draw ? std::optional<bool>(true) : std::nullopt);
  result.post_time = res.elapsed;
  if (res.ok()) {
    posted_ply_ = ply;
    retry_.reset();
    ++moves_sent_;
    const double rtt = double(res.elapsed.count());
    rtt_ms_ = rtt_ms_ == 0 ? rtt : 0.8 * rtt_ms_ + 0.2 * rtt;
    result.outcome = Outcome::kSent;
    return result;
  }
  const int attempts = (retry_ && retry_->ply == ply ? retry_->attempts : 0) + 1;
  auto retry_in = [&](Millis delay) {
    retry_ = Retry{move, ply, offer_draw, clock_.now() + delay, attempts};
    result.outcome = Outcome::kWillRetry;
  };
  switch (res.status) {
    case ApiStatus::kNetworkError:
    case ApiStatus::kServerError:
      // It may or may not have landed: the retry looks at the stream before sending again.
      // Quick retries first, then slower ones so a server in trouble is not hammered.
      log_->warn("move {} not confirmed ({}); checking the stream before retry {}", result.uci,
                 res.error, attempts);
      retry_in(attempts < kQuickAttempts ? kQuickRetryDelay : kSlowRetryDelay);
      break;
    case ApiStatus::kRateLimited: {
      // Lichess did not take it: send it again the moment the pause it asked for is over.
      const Millis pause = std::max(client_.rate_limits().remaining("move"), Millis(1));
      log_->warn("move {} rate limited ({}); sending it again in {} ms", result.uci, res.error,
                 pause.count());
      retry_in(pause);
      break;
    }
    case ApiStatus::kClientError:
      // Not our turn or not legal at the server: the stream will tell us the real position.
      rejections_ = rejected_ply_ == ply ? rejections_ + 1 : 1;
      rejected_ply_ = ply;
      log_->error("move {} refused ({}); resynchronising from the game stream", result.uci,
                  res.error);
      retry_.reset();  // refused: sending the same move again cannot help
      result.outcome = Outcome::kRefused;
      result.rethink = rejections_ < kMaxRejections;
      break;
    default:
      log_->error("move {} not sent: {}", result.uci, res.error);
      retry_.reset();
      result.outcome = Outcome::kFailed;
      break;
  }
  return result;
}

std::optional<MoveSender::Result> MoveSender::tick(int plies, bool position_unchanged) {
  if (!retry_ || clock_.now() < retry_->due) return std::nullopt;
  const Retry retry = *retry_;
  if (plies != retry.ply || !position_unchanged) {
    retry_.reset();
    return std::nullopt;
  }
  log_->info("move {} still not on the board; sending it again", to_uci(retry.move));
  return send(retry.move, retry.ply, retry.offer_draw);
}

}  // namespace zh::bot
