#pragma once
// One emulated lichess game: the project's rules core decides legality and mate/stalemate/
// fivefold; this class adds what the server owns: clocks, status and winner, draw and
// takeback offers, abort/resign rules, the chat and the "opponent gone" countdown.
// Not thread-safe: the World serialises all access.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chess/game.h"
#include "engine/chess/notation.h"
#include "tests/emulator/clock.h"
#include "tests/emulator/game_status.h"

namespace zh::emulator {

struct PlayerInfo {
  std::string id;     // lower case
  std::string name;   // display name
  std::string title;  // "BOT", "GM", ... or empty
  int rating = 1500;
  bool provisional = false;
};

struct ChatLine {
  std::string user;
  std::string text;
  std::string room;  // player | spectator
};

struct GameSetup {
  std::string id;
  PlayerInfo white;
  PlayerInfo black;
  Color bot_color = kWhite;
  bool has_clock = true;  // false: unlimited
  Millis initial_ms = 180'000;
  Millis increment_ms = 2'000;
  bool rated = false;
  std::string speed = "blitz";
  std::int64_t created_at_ms = 0;  // epoch
  Millis first_move_ms = 30'000;   // time to make the first move before the game ends
};

class EmuGame {
 public:
  // Lichess's own error texts, which clients match on.
  static constexpr std::string_view kNotYourTurn = "Not your turn, or game already over";
  static constexpr Millis kNoClockMillis = 2147483647;  // lichess sends Int.MaxValue

  EmuGame(GameSetup setup, SteadyTime now);

  const GameSetup& setup() const { return setup_; }
  const std::string& id() const { return setup_.id; }
  Color bot_color() const { return setup_.bot_color; }
  const PlayerInfo& player(Color c) const { return c == kWhite ? setup_.white : setup_.black; }
  GameStatus status() const { return status_; }
  bool finished() const { return is_finished(status_); }
  std::optional<Color> winner() const { return winner_; }
  const Game& rules() const { return game_; }
  int plies() const { return int(game_.moves().size()); }
  Color side_to_move() const { return game_.position().side_to_move(); }
  bool abortable() const { return !finished() && plies() < 2; }
  bool has_moved(Color c) const { return plies() > (c == kWhite ? 0 : 1); }
  // Moves as lichess sends them: space separated, castling king-to-rook.
  std::string moves_text() const;
  std::vector<std::string> uci_moves(CastlingNotation castling) const;
  std::string last_move_uci() const;

  Millis remaining(Color c, SteadyTime now) const;
  bool draw_offer(Color c) const { return draw_offer_[c]; }
  bool takeback_offer(Color c) const { return takeback_offer_[c]; }
  // First-move countdown (the gameState `expiration`), present while plies < 2.
  bool expiration_applies() const { return !finished() && plies() < 2; }
  Millis idle_millis(SteadyTime now) const { return millis_between(last_activity_, now); }
  const std::vector<ChatLine>& chat() const { return chat_; }

  // --- actions; each returns the lichess error text when refused ---
  std::optional<std::string> play(Color side, std::string_view uci, SteadyTime now);
  std::optional<std::string> abort(Color side, SteadyTime now);
  std::optional<std::string> resign(Color side, SteadyTime now);
  std::optional<std::string> claim_victory(Color side, SteadyTime now);
  std::optional<std::string> claim_draw(Color side, SteadyTime now);
  // Draw and takeback answers never fail (lichess replies 200 even when nothing happens);
  // they return whether the state changed, i.e. whether a gameState is due.
  bool draw(Color side, bool yes, SteadyTime now);
  bool takeback(Color side, bool yes, SteadyTime now);
  void add_chat(ChatLine line) { chat_.push_back(std::move(line)); }

  // Opponent-gone bookkeeping: `side` left (or came back); the other may claim after claim_ms.
  void set_gone(Color side, bool gone, Millis claim_ms, SteadyTime now);
  bool gone(Color side) const { return gone_[side]; }
  // Seconds until the other side may claim; 0 when it already may.
  int claim_win_in_seconds(Color gone_side, SteadyTime now) const;

  // Flag fall and first-move expiry; returns true when the game ended in this call.
  bool tick(SteadyTime now);

  // Ends the game (also used by restore); no-op when already finished.
  void finish(GameStatus status, std::optional<Color> winner, SteadyTime now);

 private:
  void after_move(Color mover, SteadyTime now);
  void rebuild_without_last(int plies, SteadyTime now);

  GameSetup setup_;
  Game game_;
  GameClock clock_;
  GameStatus status_ = GameStatus::kStarted;
  std::optional<Color> winner_;
  bool draw_offer_[2] = {false, false};
  bool takeback_offer_[2] = {false, false};
  bool gone_[2] = {false, false};
  SteadyTime gone_claim_at_[2]{};
  SteadyTime last_activity_;
  std::vector<ChatLine> chat_;
};

}  // namespace zh::emulator
