#pragma once
// The lichess side of one game, single-threaded: game-stream events, engine results and timer
// ticks go in; move POSTs, draw/takeback answers, abort, resign, claim-victory, chat and the
// PGN come out. GameSession runs it on its own thread; tests drive it directly.
//
// Rules it keeps:
//  - `moves` from the server is the whole truth: the position is rebuilt from it every time,
//    and a move our rules reject is logged with the game id and waits for the next state;
//  - it thinks only when it is our turn and nothing was sent for this ply yet, so a move is
//    never sent twice; a failed POST is retried only after the stream still shows the
//    position unchanged;
//  - a draw offer, a takeback request and the "opponent gone" countdown are each answered once.

#include <spdlog/spdlog.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bot/chat/chat.h"
#include "bot/config/bot_config.h"
#include "bot/game/move_engine.h"
#include "bot/game/ponder_coordinator.h"
#include "bot/lichess/clock.h"
#include "bot/lichess/events.h"
#include "bot/lichess/lichess_client.h"
#include "bot/metrics/metrics.h"
#include "bot/pgn/pgn_writer.h"
#include "engine/chess/game.h"

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
    std::string engine_name;  // for !name
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
  int moves_sent() const { return moves_sent_; }
  bool thinking() const { return thinking_; }
  const std::vector<std::string>& moves() const { return moves_; }
  std::optional<std::filesystem::path> pgn_path() const { return pgn_path_; }

 private:
  void on_full(const GameFull& full, TimePoint received);
  void on_state(const GameState& state, TimePoint received);
  void on_chat(const ChatLine& line);
  void on_opponent_gone(const OpponentGone& gone);
  bool rebuild(const std::string& moves_text);
  bool our_turn() const;
  void answer_offers(const GameState& s);
  void start_think(TimePoint received);
  void post_move(Move move, const ThinkResult& r);
  void maybe_ponder(Move our_move);
  void stop_pondering();
  void finish(const std::string& status, const std::string& winner);
  void say(ChatRoom room, const std::string& text, bool rate_limited);
  void save_pgn_file(const std::string& status, const std::string& winner);
  EvalSummary eval_summary() const;
  std::int64_t our_clock_ms() const;

  std::string game_id_;
  const BotConfig& config_;
  Env env_;
  MoveEngine& engine_;
  Deliver deliver_;
  std::shared_ptr<spdlog::logger> log_;
  ChatRateLimiter chat_limiter_;

  // from gameFull
  bool have_full_ = false;
  GameFull full_;
  Color our_color_ = kWhite;
  std::string opponent_name_;
  bool opponent_is_bot_ = false;

  // the game as the server last described it
  GameState state_;
  std::string moves_text_;
  std::vector<std::string> moves_;
  Game game_;
  bool position_valid_ = false;

  // thinking and sending
  std::uint64_t think_id_ = 0;
  bool thinking_ = false;
  std::string think_moves_;
  TimePoint line_received_{};
  double before_search_ms_ = 0;  // line received -> engine asked (for the overhead log)
  int posted_ply_ = -1;          // ply index of the last move the server accepted from us
  int rejected_ply_ = -1;        // ply whose POST got a 400
  int rejections_ = 0;
  struct Retry {
    Move move;
    ThinkResult result;
    int ply = 0;
    TimePoint due{};
    int attempts = 0;
  };
  std::optional<Retry> retry_;
  struct PendingFinish {  // the event stream said the game ended; the game stream lags
    std::string status;
    std::string winner;
    TimePoint due{};
  };
  std::optional<PendingFinish> pending_finish_;
  std::optional<TimePoint> rethink_at_;
  int think_failures_ = 0;
  double rtt_ms_ = 0;  // smoothed round trip of our move POSTs
  int moves_sent_ = 0;
  std::vector<PgnMoveNote> notes_;
  std::optional<ThinkResult> last_result_;
  int low_value_streak_ = 0;

  // offers and timers
  bool draw_offer_answered_ = false;  // reset when the offer disappears
  bool takeback_offer_answered_ = false;
  int takebacks_given_ = 0;
  std::optional<TimePoint> opponent_turn_since_;
  bool abort_sent_ = false;
  std::optional<TimePoint> claim_at_;
  int claim_attempts_ = 0;
  bool greeted_ = false;

  bool finished_ = false;
  std::string result_;
  std::optional<std::filesystem::path> pgn_path_;
};

}  // namespace zh::bot
