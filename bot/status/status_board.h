#pragma once
// Where the daemon's parts publish what the status page shows, and where the HTTP thread reads
// it. Each publisher hands over a finished value (a game session its GameView after each state
// change, the desk its queue a few times a second); the board's own lock is held only to swap
// or copy those values, never while a search, an HTTP call or a game's lock is held, so
// /status.json never waits on a game and a game never waits on /status.json.

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "bot/status/status_model.h"

namespace zh::bot {

class StatusBoard {
 public:
  static constexpr std::size_t kMaxDeclines = 20;
  static constexpr std::size_t kMaxFinished = 20;
  static constexpr std::size_t kMaxRatingPoints = 500;

  // `now_unix_ms`: the wall clock (tests pass their own).
  explicit StatusBoard(std::function<std::int64_t()> now_unix_ms = {});

  void set_account(const std::string& name, const std::string& title, std::optional<int> rating);
  // Games of earlier runs (bot/status/pgn_history.h): finished ones newest first, ratings
  // oldest first; they go before everything this run adds.
  void restore_history(const std::vector<FinishedGame>& finished,
                       const std::vector<RatingPoint>& ratings);
  void stream_connected();
  void stream_lost(const std::string& why);
  void set_draining();
  // Figures read live at each snapshot (called outside the board's lock).
  void set_evaluator_source(std::function<EvaluatorView()> source);

  void publish_game(std::shared_ptr<const GameView> game);
  // The game is over: it leaves the live list and heads the finished ones. An aborted game
  // (result "aborted") only leaves.
  void end_game(const std::string& game_id, const std::string& result);
  // Our rating change in that game, as gameFinish says (before or after end_game).
  void note_rating_diff(const std::string& game_id, int diff);
  // A game the daemon left without a result (shutdown): it leaves the live list.
  void drop_game(const std::string& game_id);

  void publish_desk(DeskView desk);
  void add_decline(DeclinedChallenge decline);

  StatusSnapshot snapshot() const;
  std::int64_t now_unix_ms() const { return now_(); }

 private:
  void add_rating_point_locked(const FinishedGame& game);

  std::function<std::int64_t()> now_;
  std::int64_t started_unix_ms_;
  mutable std::mutex mutex_;
  ConnectionView connection_;
  std::function<EvaluatorView()> evaluator_source_;
  std::map<std::string, std::shared_ptr<const GameView>> games_;
  DeskView desk_;
  std::deque<DeclinedChallenge> declines_;
  std::deque<FinishedGame> finished_;
  std::map<std::string, int> rating_diffs_;  // gameFinish ahead of the game's own end
  std::deque<RatingPoint> ratings_;
};

}  // namespace zh::bot
