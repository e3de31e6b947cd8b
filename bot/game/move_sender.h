#pragma once
// Sends our moves to lichess, and owns the rules that keep every move sent exactly once:
//  - a move is sent at most once per ply (the ply it was computed for);
//  - one that may not have landed (network error, 5xx) is sent again only after the game
//    stream still shows the same position, quickly at first and then every 1.5 s, and never
//    given up while the game runs: a dropped move is a game lost on time;
//  - one refused with 429 is sent again the moment the pause lichess asked for is over;
//  - one refused with another 4xx is not sent again; the caller re-thinks (at most twice a ply).
// Single-threaded; the session calls it from its own worker thread, never the engine's.

#include <spdlog/spdlog.h>

#include <optional>
#include <string>

#include "bot/lichess/lichess_client.h"
#include "engine/chess/move.h"
#include "engine/util/clock.h"

namespace zh::bot {

class MoveSender {
 public:
  enum class Outcome {
    kSent,         // lichess took it
    kAlreadySent,  // a move for this ply was sent before; nothing sent now
    kWillRetry,    // not confirmed or rate limited: tick() sends it again when due
    kRefused,      // 4xx: the stream will show the real position
    kFailed,       // given up (the game is gone, the token refused)
  };
  struct Result {
    Outcome outcome = Outcome::kFailed;
    std::string uci;    // as sent (lichess castling form)
    TimePoint sent_at;  // when the POST started
    Millis post_time{0};
    bool rethink = false;  // kRefused: think again if the stream has nothing new to say
  };

  MoveSender(std::string game_id, LichessClient& client, Clock& clock,
             std::shared_ptr<spdlog::logger> log);

  // Sends `move`, computed for ply `ply` (the number of moves on the board), with a draw offer
  // when `offer_draw` (a retry of the move keeps it).
  Result send(Move move, int ply, bool offer_draw = false);
  // A new server state with `plies` moves: a retried move that landed is dropped, and a
  // takeback below our last move opens its ply again.
  void board_changed(int plies);
  // Sends a due retry when the board still shows the ply it was for (`plies`) and nothing
  // else changed; drops it otherwise. Returns what send() returned, when it sent.
  std::optional<Result> tick(int plies, bool position_unchanged);
  // The game ended: nothing more is sent.
  void cancel() { retry_.reset(); }

  bool sent_for(int ply) const { return posted_ply_ == ply; }
  // True unless this ply has a move sent or pending, or was refused too often.
  bool may_send_for(int ply) const;
  bool retry_pending() const { return retry_.has_value(); }
  // Smoothed round trip of our move POSTs (0 before the first); time the server charges us.
  double round_trip_ms() const { return rtt_ms_; }
  int moves_sent() const { return moves_sent_; }

  static constexpr Millis kQuickRetryDelay{400};  // lets the stream show whether it landed
  static constexpr int kQuickAttempts = 3;
  static constexpr Millis kSlowRetryDelay{1500};
  static constexpr int kMaxRejections = 2;  // 400s for one ply before we stop insisting

 private:
  struct Retry {
    Move move;
    int ply = 0;
    bool offer_draw = false;
    TimePoint due{};
    int attempts = 0;
  };

  std::string game_id_;
  LichessClient& client_;
  Clock& clock_;
  std::shared_ptr<spdlog::logger> log_;
  int posted_ply_ = -1;  // ply of the last move lichess accepted from us
  int rejected_ply_ = -1;
  int rejections_ = 0;
  std::optional<Retry> retry_;
  double rtt_ms_ = 0;
  int moves_sent_ = 0;
};

}  // namespace zh::bot
