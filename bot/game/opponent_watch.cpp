#include "bot/game/opponent_watch.h"

#include <algorithm>
#include <chrono>

namespace zh::bot {

OpponentWatch::OpponentWatch(std::string game_id, const BotConfig& config, LichessClient& client,
                             Clock& clock, std::shared_ptr<spdlog::logger> log)
    : game_id_(std::move(game_id)),
      config_(config),
      client_(client),
      clock_(clock),
      log_(std::move(log)) {}

void OpponentWatch::on_board(int plies, bool our_turn, bool changed) {
  if (changed) {
    waiting_since_.reset();
    abort_at_.reset();
  }
  if (!our_turn && plies < 2 && !waiting_since_) {
    waiting_since_ = clock_.now();
    abort_at_ = *waiting_since_ + std::chrono::seconds(config_.abort_time_s);
  }
}

std::optional<int> OpponentWatch::grant_wait() {
  if (!abort_at_ || abort_sent_ || clockless_ || waits_granted_ >= kMaxWaits) return std::nullopt;
  ++waits_granted_;
  const TimePoint now = clock_.now();
  abort_at_ = std::max(*abort_at_, now + kWaitGrant);
  const auto left = std::chrono::ceil<std::chrono::seconds>(*abort_at_ - now).count();
  log_->info("opponent asked to wait ({} of {}): abort in {} s", waits_granted_, kMaxWaits, left);
  return static_cast<int>(left);
}

void OpponentWatch::on_opponent_gone(const OpponentGone& gone) {
  if (!gone.gone) {
    if (claim_at_) log_->info("opponent is back");
    claim_at_.reset();
    return;
  }
  if (!config_.claim_victory || !gone.claim_win_in_seconds) return;
  claim_attempts_ = 0;
  claim_at_ = clock_.now() + std::chrono::seconds(*gone.claim_win_in_seconds) + kClaimMargin;
  log_->info("opponent gone; victory claimable in {} s", *gone.claim_win_in_seconds);
}

void OpponentWatch::tick(int plies, bool our_turn) {
  const TimePoint now = clock_.now();
  if (!abort_sent_ && !clockless_ && abort_at_ && plies < 2 && !our_turn && now >= *abort_at_) {
    abort_sent_ = true;
    const ApiResult r = client_.abort_game(game_id_);
    log_->info("opponent made no first move in {} s: abort ({})",
               std::chrono::duration_cast<std::chrono::seconds>(now - *waiting_since_).count(),
               r.ok() ? "ok" : r.error);
  }
  if (claim_at_ && now >= *claim_at_) {
    claim_at_.reset();
    const ApiResult r = client_.claim_victory(game_id_);
    log_->info("opponent left: claiming victory ({})", r.ok() ? "ok" : r.error);
    if (!r.ok() && ++claim_attempts_ < kClaimAttempts) claim_at_ = now + kClaimRetryDelay;
  }
}

}  // namespace zh::bot
