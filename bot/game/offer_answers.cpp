#include "bot/game/offer_answers.h"

#include <cmath>

namespace zh::bot {

OfferAnswers::OfferAnswers(std::string game_id, const BotConfig& config, LichessClient& client,
                           std::shared_ptr<spdlog::logger> log)
    : game_id_(std::move(game_id)), config_(config), client_(client), log_(std::move(log)) {}

void OfferAnswers::on_state(const GameState& s, Color us, int full_move,
                            const std::optional<OurEvaluation>& eval) {
  const bool draw_offered = us == kWhite ? s.bdraw : s.wdraw;
  if (!draw_offered) draw_answered_ = false;
  if (draw_offered && !draw_answered_) {
    draw_answered_ = true;
    const bool level =
        eval && !eval->mate && std::fabs(eval->value) <= config_.draw_value_threshold;
    const bool accept = config_.accept_draws && full_move >= config_.draw_min_moves && level;
    const ApiResult r = client_.answer_draw(game_id_, accept);
    log_->info("draw offer {} ({})", accept ? "accepted" : "declined", r.ok() ? "ok" : r.error);
  }
  const bool takeback_asked = us == kWhite ? s.btakeback : s.wtakeback;
  if (!takeback_asked) takeback_answered_ = false;
  if (takeback_asked && !takeback_answered_) {
    takeback_answered_ = true;
    const bool accept = takebacks_given_ < config_.takebacks_accepted;
    if (accept) ++takebacks_given_;
    const ApiResult r = client_.answer_takeback(game_id_, accept);
    log_->info("takeback request {} ({})", accept ? "accepted" : "declined",
               r.ok() ? "ok" : r.error);
  }
}

}  // namespace zh::bot
