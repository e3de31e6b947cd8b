#pragma once
// What /status.json and the /status page show: plain values the daemon's parts publish (the
// games, the challenge desk, the event stream) and the HTTP thread reads. Nothing here is
// secret: no token, no file path.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace zh::bot {

struct StatusPlayer {
  std::string name;
  std::string title;  // "BOT", "GM", ... or empty
  std::optional<int> rating;
};

// The board of a game as the page draws it.
struct BoardView {
  std::string fen;           // lichess form: the pocket as a ninth rank, '~' after promoted pieces
  std::string side_to_move;  // "white" | "black"
  std::string pocket_white;  // "QPP": the pieces White may drop, upper case
  std::string pocket_black;  // "np": Black's, lower case
  std::string last_move;     // UCI ("e2e4", "P@f7"); empty before the first move
  std::vector<std::string> recent_san;  // the last few plies, oldest first
  int plies = 0;
};

// Our evaluation after one of our moves, from our side: centipawns, or a mate in `mate` moves
// (negative: we are being mated).
struct EvalPoint {
  int ply = 0;
  int cp = 0;
  std::optional<int> mate;
};

struct GameView {
  std::string id;
  std::string url;
  std::string color;  // ours: "white" | "black"
  StatusPlayer opponent;
  std::optional<int> our_rating;
  bool rated = false;
  std::string speed;                       // "blitz", ...
  std::optional<std::int64_t> initial_ms;  // none: no clock
  std::optional<std::int64_t> increment_ms;
  std::int64_t white_ms = 0, black_ms = 0;  // as the last game state said
  std::int64_t clocks_at_unix_ms = 0;       // when that state arrived
  BoardView board;
  bool thinking = false;
  std::optional<EvalPoint> eval;  // the last one (none before our first searched move)
  std::int64_t nodes = 0, nps = 0;
  std::vector<EvalPoint> eval_history;  // one per searched move of ours
};

struct QueuedChallenge {
  std::string id;
  StatusPlayer challenger;
  std::string speed;
  std::string time_control;  // "180+2", "1 day", "unlimited"
  bool rated = false;
  std::int64_t arrived_unix_ms = 0;
};

struct DeclinedChallenge {
  std::string id;
  StatusPlayer challenger;
  std::string time_control;
  std::string reason;  // lichess's reason key: "tooFast", "casual", "later", ...
  std::string detail;  // why, in words
  std::int64_t at_unix_ms = 0;
};

struct BotDecline {  // a bot that declined our matchmaking challenge
  std::string user;
  std::string reason;
  std::int64_t until_unix_ms = 0;  // 0: never asked again
};

struct MatchmakingView {
  bool enabled = false;
  std::string challenging;      // the bot our challenge waits on ("" when none)
  std::string challenge_clock;  // its clock, "180+2"
  std::optional<std::int64_t> next_seek_unix_ms;
  std::int64_t bot_games_paused_until_unix_ms = 0;  // lichess's daily bot-game limit
  int bot_games_24h = 0;
  std::vector<BotDecline> declined_by;
};

struct DeskView {
  std::vector<QueuedChallenge> queue;  // in the order they will be taken
  MatchmakingView matchmaking;
};

struct FinishedGame {
  std::string id;
  std::string url;
  std::string color;
  StatusPlayer opponent;
  std::string result;  // win | loss | draw
  bool rated = false;
  std::string speed;
  std::optional<int> our_rating;   // before the game
  std::optional<int> rating_diff;  // what the game changed it by, as lichess said
  int plies = 0;
  std::int64_t ended_unix_ms = 0;
};

struct RatingPoint {
  std::int64_t at_unix_ms = 0;
  int rating = 0;
};

struct ConnectionView {
  std::string account;  // user name
  std::string title;
  std::optional<int> rating;  // crazyhouse
  bool event_stream_up = false;
  std::int64_t up_since_unix_ms = 0;  // 0 when down
  int reconnects = 0;
  std::string last_error;
  std::int64_t last_error_unix_ms = 0;
  bool draining = false;
};

struct EvaluatorView {
  std::string backend, device, precision;
  bool healthy = true;
  std::uint64_t failures = 0;
  double nodes_per_second = 0;       // the last searched move
  std::optional<double> batch_fill;  // mean batch over its maximum, where batched
  std::optional<double> forward_us;  // mean per batch
};

struct StatusSnapshot {
  std::string version;
  std::int64_t now_unix_ms = 0;
  std::int64_t started_unix_ms = 0;
  ConnectionView connection;
  EvaluatorView evaluator;
  std::vector<GameView> games;
  DeskView desk;
  std::vector<DeclinedChallenge> declines;  // newest first
  std::vector<FinishedGame> finished;       // newest first
  std::vector<RatingPoint> rating_history;  // oldest first
};

}  // namespace zh::bot
