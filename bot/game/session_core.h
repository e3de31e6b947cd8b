#pragma once
// The lichess side of one game, single-threaded: game-stream events, engine results and timer
// ticks go in; it decides when to think and hands the rest to one unit per concern:
//
//   ServerBoard    the board as the server's move list says (the whole truth)
//   MoveSender     sends each move exactly once, retries until it lands, 429 pauses
//   OfferAnswers   draw offers and takeback requests, each answered once
//   ResignWatch    when a lost position is resigned
//   DrawOfferWatch when a level position gets a draw offer with our move
//   OpponentWatch  abort when the first moves never come, claim the win when they left
//   SessionChat    greetings, goodbyes and chat commands
//   GameRecord     the PGN with our evaluations and clocks
//   think_limits   the search limits from the server's clocks
//
// It thinks only when it is our turn and the sender has nothing sent or pending for this ply.
// GameSession runs it on its own worker thread (engine results are posted there); tests drive
// it directly.

#include <spdlog/spdlog.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bot/config/bot_config.h"
#include "bot/game/game_record.h"
#include "bot/game/move_engine.h"
#include "bot/game/move_sender.h"
#include "bot/game/offer_answers.h"
#include "bot/game/opponent_watch.h"
#include "bot/game/ponder_coordinator.h"
#include "bot/game/server_board.h"
#include "bot/game/session_chat.h"
#include "bot/game/think_limits.h"
#include "bot/lichess/events.h"
#include "bot/lichess/lichess_client.h"
#include "bot/metrics/metrics.h"
#include "bot/status/status_board.h"
#include "engine/util/clock.h"

namespace zh::bot {

class SessionCore {
 public:
  // Hands an engine result back to the session's thread, tagged with the think it answers.
  using Deliver = std::function<void(const ThinkResult& result, std::uint64_t think_id)>;

  struct Env {
    LichessClient* client = nullptr;
    Clock* clock = nullptr;
    Metrics* metrics = nullptr;           // optional
    PonderCoordinator* ponder = nullptr;  // optional
    std::string my_id;                    // lowercase account id
    std::string my_name;
    std::string engine_name;                                  // for !name
    std::function<QueueView(const std::string& user)> queue;  // for !queue (optional)
    StatusBoard* status = nullptr;                            // the status page's (optional)
    std::string game_url;                                     // for the status page
  };

  SessionCore(std::string game_id, const BotConfig& config, Env env, MoveEngine& engine,
              Deliver deliver, std::shared_ptr<spdlog::logger> log);

  void on_event(const GameEvent& event, TimePoint received);
  void on_think_done(const ThinkResult& result, std::uint64_t think_id);
  // gameFinish from the event stream (the game stream may be gone by then).
  void on_game_finished(const GameInfo& info);
  // Timers: abort, claim victory, move retry. Call every few hundred ms.
  void tick();
  // Shutdown without a result: stop thinking (the game goes on at lichess; a restart resumes).
  void abandon_locally();

  bool finished() const { return finished_; }
  const std::string& result() const { return result_; }  // win | loss | draw | aborted
  const std::string& game_id() const { return game_id_; }
  int moves_sent() const { return sender_.moves_sent(); }
  bool thinking() const { return thinking_; }
  const std::vector<std::string>& moves() const { return board_.moves(); }
  std::optional<std::filesystem::path> pgn_path() const { return pgn_path_; }

 private:
  void on_full(const GameFull& full, TimePoint received);
  void on_state(const GameState& state, TimePoint received);
  bool our_turn() const;
  void start_think(TimePoint received);
  // After a think that gave no usable move: another one shortly, up to kMaxThinkFailures.
  void think_again_later();
  void send(Move move);
  void handle_sent(const MoveSender::Result& sent);
  void maybe_ponder(Move our_move);
  void stop_pondering();
  void finish(const std::string& status, const std::string& winner);
  EvalSummary eval_summary() const;
  // Hands the game as it stands now to the status page (after every change).
  void publish_status();

  std::string game_id_;
  const BotConfig& config_;
  Env env_;
  MoveEngine& engine_;
  Deliver deliver_;
  std::shared_ptr<spdlog::logger> log_;
  ServerBoard board_;
  MoveSender sender_;
  OfferAnswers offers_;
  ResignWatch resign_;
  DrawOfferWatch draw_offers_;
  OpponentWatch opponent_;
  SessionChat chat_;
  GameRecord record_;

  // from gameFull
  bool have_full_ = false;
  GameFull full_;
  Color our_color_ = kWhite;
  bool opponent_is_bot_ = false;
  GameState state_;  // the last one

  // thinking
  std::uint64_t think_id_ = 0;
  bool thinking_ = false;
  std::string think_moves_;  // the move list the running (or last) think is for
  TimePoint line_received_{};
  double before_search_ms_ = 0;  // line received -> engine asked (for the overhead log)
  std::optional<TimePoint> rethink_at_;
  int think_failures_ = 0;
  std::optional<ThinkResult> last_result_;
  std::vector<EvalPoint> eval_history_;  // for the status page's sparkline

  struct PendingFinish {  // the event stream said the game ended; the game stream lags
    std::string status;
    std::string winner;
    TimePoint due{};
  };
  std::optional<PendingFinish> pending_finish_;

  bool finished_ = false;
  std::string result_;
  std::optional<std::filesystem::path> pgn_path_;
};

}  // namespace zh::bot
