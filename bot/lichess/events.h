#pragma once
// Typed lichess events, parsed from NDJSON lines with nlohmann::json. Parsing is defensive:
// only the fields the bot needs are read, missing optional fields get defaults, and a line
// that is not a known event comes back as an error string for the caller to log and skip.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace zh::bot {

// --- event stream (/api/stream/event) ---

struct Opponent {
  std::string id;  // empty for the lichess AI
  std::string username;
  std::optional<int> rating;
  std::optional<int> ai_level;
};

// Schema GameEventInfo (gameStart / gameFinish).
struct GameInfo {
  std::string game_id;
  std::string full_id;
  std::string color;  // ours: "white" | "black"
  std::string fen;
  std::string last_move;
  std::string source;
  std::string status;   // status name, e.g. "started", "mate"
  std::string variant;  // variant key, e.g. "crazyhouse"
  std::string speed;
  bool rated = false;
  bool is_my_turn = false;
  bool compat_bot = true;
  Opponent opponent;
  std::optional<int> seconds_left;
  std::string winner;              // "white" | "black" | "" (draw or unfinished)
  std::optional<int> rating_diff;  // ours, in gameFinish of a rated game
};

struct ChallengeUser {
  std::string id;
  std::string name;
  std::optional<int> rating;
  std::string title;  // "BOT", "GM", ... or empty
  bool provisional = false;
  bool online = false;
  bool is_bot() const { return title == "BOT"; }
};

struct TimeControl {
  std::string type;  // "clock" | "correspondence" | "unlimited"
  int limit_s = 0;   // clock only
  int increment_s = 0;
  int days_per_turn = 0;  // correspondence only
};

// Schema ChallengeJson.
struct Challenge {
  std::string id;
  std::string url;
  std::string status;
  ChallengeUser challenger;
  std::optional<ChallengeUser> dest_user;  // absent for open challenges
  std::string variant;
  bool rated = false;
  std::string speed;
  TimeControl time_control;
  std::string color;  // the challenger's choice: white | black | random
  std::string rematch_of;
  std::string decline_reason_key;
  std::optional<bool> compat_bot;  // from the event wrapper
};

struct GameStartEvent {
  GameInfo game;
};
struct GameFinishEvent {
  GameInfo game;
};
struct ChallengeEvent {
  Challenge challenge;
};
struct ChallengeCanceledEvent {
  Challenge challenge;
};
struct ChallengeDeclinedEvent {
  Challenge challenge;
};

using Event = std::variant<GameStartEvent, GameFinishEvent, ChallengeEvent, ChallengeCanceledEvent,
                           ChallengeDeclinedEvent>;

// --- game stream (/api/bot/game/stream/{id}) ---

struct GameState {
  std::string moves;  // space-separated UCI from the initial position: the full list
  std::int64_t wtime_ms = 0;
  std::int64_t btime_ms = 0;
  std::int64_t winc_ms = 0;
  std::int64_t binc_ms = 0;
  std::string status;
  std::string winner;
  bool wdraw = false;
  bool bdraw = false;
  bool wtakeback = false;
  bool btakeback = false;

  std::vector<std::string> move_list() const;
  bool finished() const { return status != "started" && status != "created"; }
};

struct GamePlayer {
  std::string id;  // empty for the lichess AI
  std::string name;
  std::string title;
  std::optional<int> rating;
  std::optional<int> ai_level;
  bool provisional = false;
  bool is_bot() const { return title == "BOT"; }
};

struct GameFull {
  std::string id;
  std::string variant;
  std::string speed;
  bool rated = false;
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> clock_initial_ms;
  std::optional<std::int64_t> clock_increment_ms;
  GamePlayer white;
  GamePlayer black;
  std::string initial_fen;  // "startpos" or a FEN
  GameState state;
};

struct ChatLine {
  std::string username;
  std::string text;
  std::string room;  // "player" | "spectator"
};

struct OpponentGone {
  bool gone = false;
  std::optional<int> claim_win_in_seconds;
};

using GameEvent = std::variant<GameFull, GameState, ChatLine, OpponentGone>;

// Parses one event-stream line. On failure returns nullopt and says why in `error`
// (malformed JSON, unknown type, missing required field).
std::optional<Event> parse_event(std::string_view line, std::string& error);
std::optional<GameEvent> parse_game_event(std::string_view line, std::string& error);

// Typed views of the responses of GET /api/account and GET /api/account/playing.
struct Account {
  std::string id;
  std::string username;
  std::string title;
  std::optional<int> crazyhouse_rating;  // perfs.crazyhouse.rating, when the account has one
  bool is_bot() const { return title == "BOT"; }
};
// One line of GET /api/bot/online (a User).
struct OnlineBot {
  std::string id;
  std::string username;
  std::optional<int> crazyhouse_rating;
  int crazyhouse_games = 0;  // 0: has never played crazyhouse
  bool provisional = false;
};
struct OngoingGame {
  std::string game_id;
  std::string full_id;
  std::string color;
  std::string variant;
  std::string speed;
  bool is_my_turn = false;
  Opponent opponent;
};
std::optional<Account> parse_account(std::string_view body, std::string& error);
std::optional<std::vector<OngoingGame>> parse_playing(std::string_view body, std::string& error);
// GET /api/users/status: [{"id","name","title"?,"online"?,...}]; the ids (lower case) of the
// users lichess titles BOT, or nothing when the body is not such an array.
std::optional<std::vector<std::string>> parse_bot_ids(std::string_view body, std::string& error);
// NDJSON, one User a line; lines that are not a usable user are skipped.
std::vector<OnlineBot> parse_online_bots(std::string_view body);
// The id of a ChallengeJson (the answer to POST /api/challenge/{username}); "" when absent.
std::string parse_challenge_id(std::string_view body);
// A lichess rate-limit body: {"error":..,"ratelimit":{"key":"bot.vsBot.day","seconds":N}}.
struct RateLimitInfo {
  std::string key;
  std::optional<int> seconds;
};
std::optional<RateLimitInfo> parse_rate_limit(std::string_view body);

// The error text of a lichess error body ({"error": "..."}), or the body cut short.
std::string error_text(std::string_view body);

// A rating for the log: the number, or "?" when lichess did not give one.
std::string rating_text(const std::optional<int>& rating);

// Lichess ids are short alphanumeric strings. Anything else from the network is refused before
// it is put into a URL path.
bool is_valid_id(std::string_view id);
// Lichess user names and ids: letters, digits, '_' and '-', at most 30 characters.
bool is_valid_username(std::string_view name);

}  // namespace zh::bot
