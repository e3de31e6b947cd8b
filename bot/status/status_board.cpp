#include "bot/status/status_board.h"

#include <chrono>

#include "engine/util/clock.h"

namespace zh::bot {

namespace {

std::int64_t system_unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             steady_clock().wall_now().time_since_epoch())
      .count();
}

template <typename T>
void push_front_capped(std::deque<T>& list, T value, std::size_t cap) {
  list.push_front(std::move(value));
  if (list.size() > cap) list.pop_back();
}

}  // namespace

StatusBoard::StatusBoard(std::function<std::int64_t()> now_unix_ms)
    : now_(now_unix_ms ? std::move(now_unix_ms) : system_unix_ms), started_unix_ms_(now_()) {}

void StatusBoard::set_account(const std::string& name, const std::string& title,
                              std::optional<int> rating) {
  std::lock_guard lock(mutex_);
  connection_.account = name;
  connection_.title = title;
  connection_.rating = rating;
  if (rating && ratings_.empty()) ratings_.push_back({now_(), *rating});
}

void StatusBoard::restore_history(const std::vector<FinishedGame>& finished,
                                  const std::vector<RatingPoint>& ratings) {
  std::lock_guard lock(mutex_);
  for (const auto& f : finished) {
    if (finished_.size() >= kMaxFinished) break;
    finished_.push_back(f);
  }
  ratings_.insert(ratings_.begin(), ratings.begin(), ratings.end());
  while (ratings_.size() > kMaxRatingPoints) ratings_.pop_front();
}

void StatusBoard::stream_connected() {
  std::lock_guard lock(mutex_);
  connection_.event_stream_up = true;
  connection_.up_since_unix_ms = now_();
}

void StatusBoard::stream_lost(const std::string& why) {
  std::lock_guard lock(mutex_);
  if (connection_.event_stream_up) ++connection_.reconnects;
  connection_.event_stream_up = false;
  connection_.up_since_unix_ms = 0;
  connection_.last_error = why;
  connection_.last_error_unix_ms = now_();
}

void StatusBoard::set_draining() {
  std::lock_guard lock(mutex_);
  connection_.draining = true;
}

void StatusBoard::set_evaluator_source(std::function<EvaluatorView()> source) {
  std::lock_guard lock(mutex_);
  evaluator_source_ = std::move(source);
}

void StatusBoard::publish_game(std::shared_ptr<const GameView> game) {
  std::lock_guard lock(mutex_);
  games_[game->id] = std::move(game);
}

void StatusBoard::end_game(const std::string& game_id, const std::string& result) {
  std::lock_guard lock(mutex_);
  const auto it = games_.find(game_id);
  if (it == games_.end()) return;
  const GameView& g = *it->second;
  if (result != "aborted") {
    FinishedGame f;
    f.id = g.id;
    f.url = g.url;
    f.color = g.color;
    f.opponent = g.opponent;
    f.result = result;
    f.rated = g.rated;
    f.speed = g.speed;
    f.our_rating = g.our_rating;
    f.plies = g.board.plies;
    f.ended_unix_ms = now_();
    if (const auto diff = rating_diffs_.find(game_id); diff != rating_diffs_.end()) {
      f.rating_diff = diff->second;
      rating_diffs_.erase(diff);
      add_rating_point_locked(f);
    }
    push_front_capped(finished_, std::move(f), kMaxFinished);
  }
  games_.erase(it);
}

void StatusBoard::note_rating_diff(const std::string& game_id, int diff) {
  std::lock_guard lock(mutex_);
  for (auto& f : finished_) {
    if (f.id != game_id) continue;
    if (!f.rating_diff) {
      f.rating_diff = diff;
      add_rating_point_locked(f);
    }
    return;
  }
  if (rating_diffs_.size() < kMaxFinished) rating_diffs_[game_id] = diff;
}

void StatusBoard::add_rating_point_locked(const FinishedGame& game) {
  if (!game.rated || !game.our_rating || !game.rating_diff) return;
  const int rating = *game.our_rating + *game.rating_diff;
  ratings_.push_back({game.ended_unix_ms, rating});
  if (ratings_.size() > kMaxRatingPoints) ratings_.pop_front();
  connection_.rating = rating;
}

void StatusBoard::drop_game(const std::string& game_id) {
  std::lock_guard lock(mutex_);
  games_.erase(game_id);
}

void StatusBoard::publish_desk(DeskView desk) {
  std::lock_guard lock(mutex_);
  desk_ = std::move(desk);
}

void StatusBoard::add_decline(DeclinedChallenge decline) {
  if (decline.at_unix_ms == 0) decline.at_unix_ms = now_();
  std::lock_guard lock(mutex_);
  push_front_capped(declines_, std::move(decline), kMaxDeclines);
}

StatusSnapshot StatusBoard::snapshot() const {
  StatusSnapshot s;
  std::vector<std::shared_ptr<const GameView>> games;
  std::function<EvaluatorView()> evaluator;
  {
    std::lock_guard lock(mutex_);
    s.started_unix_ms = started_unix_ms_;
    s.connection = connection_;
    s.desk = desk_;
    s.declines.assign(declines_.begin(), declines_.end());
    s.finished.assign(finished_.begin(), finished_.end());
    s.rating_history.assign(ratings_.begin(), ratings_.end());
    for (const auto& [id, game] : games_) games.push_back(game);
    evaluator = evaluator_source_;
  }
  // The games are immutable once published: copied outside the lock.
  for (const auto& g : games) s.games.push_back(*g);
  if (evaluator) s.evaluator = evaluator();
  s.now_unix_ms = now_();
  return s;
}

}  // namespace zh::bot
