#pragma once
// The emulated lichess: the bot account, simulated users, challenges, games and the open
// streams, behind one mutex; one source file per part of the API it serves (world.cpp says
// which). Routes call it with already-parsed input and get the lichess
// reply back; a ticker thread runs clocks, expiries and countdowns; one driver thread per
// game plays the simulated opponent.

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/emulator/challenge.h"
#include "tests/emulator/emu_game.h"
#include "tests/emulator/faults.h"
#include "tests/emulator/line_channel.h"
#include "tests/emulator/opponent_spec.h"
#include "tests/emulator/request_log.h"

namespace zh::emulator {

struct WorldOptions {
  PlayerInfo bot{"zhbot", "zhbot", "BOT", 1500, false};
  std::vector<std::string> tokens{"lip_emulator_token"};
  int heartbeat_ms = 6000;
  int first_move_ms = 30'000;     // a player's time for the first move (expiration)
  int challenge_ttl_ms = 20'000;  // real-time challenges expire after 20 s on lichess
  int outgoing_answer_ms = 300;   // how fast simulated users answer the bot's challenges
  // Bot-vs-bot games the bot may start per day (lichess: 100, `bot.vsBot.day`); beyond it,
  // challenging or accepting a bot answers 429 with that rate-limit key.
  int bot_games_per_day = 100;
  std::string engine_path = "/usr/games/fairy-stockfish";
  std::uint64_t seed = 1;
  bool echo_requests = false;
  // Challenges (admin JSON) issued when the bot first opens its event stream (--challenge).
  std::vector<nlohmann::json> startup_challenges;
};

// A simulated user the bot can challenge (or be challenged by).
struct SimUser {
  PlayerInfo info;
  bool online_bot = false;     // listed by GET /api/bot/online
  std::string decline_reason;  // non-empty: declines the bot's challenges with it
  bool ignores = false;        // never answers the bot's challenges (they time out)
  // Non-empty: lichess refuses the bot's challenge to this user at once, HTTP 400 with this
  // error (it takes no challenges, ...); with refuses_seconds > 0 the body also carries
  // {"ratelimit":{"key":"bot.vsBot.day","seconds":N}}, as for a bot at its own daily limit.
  std::string refuses;
  int refuses_seconds = 0;
  OpponentSpec opponent;
};

struct ApiReply {
  int status = 200;
  std::string body = R"({"ok":true})";
  std::string content_type = "application/json";
};

class World {
 public:
  explicit World(WorldOptions options);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  const WorldOptions& options() const { return options_; }
  FaultPlan& faults() { return faults_; }
  RequestLog& log() { return log_; }
  bool token_ok(const std::string& token) const;
  bool bot_titled() const;

  // --- Bot API (the route has checked auth and faults) ---
  ApiReply account();
  ApiReply account_playing(int nb);
  ApiReply upgrade();
  std::shared_ptr<LineChannel> open_event_stream();
  // Issues options().startup_challenges once, after the first event stream opened.
  void issue_startup_challenges();
  // nullptr with `error` filled when the game cannot be streamed.
  std::shared_ptr<LineChannel> open_game_stream(const std::string& id, const std::string& agent,
                                                ApiReply& error);
  ApiReply move(const std::string& id, const std::string& uci, std::optional<bool> offering_draw);
  ApiReply chat_post(const std::string& id, const std::string& room, const std::string& text);
  ApiReply chat_get(const std::string& id);
  ApiReply abort(const std::string& id);
  ApiReply resign(const std::string& id);
  ApiReply draw(const std::string& id, bool yes);
  ApiReply takeback(const std::string& id, bool yes);
  ApiReply claim_victory(const std::string& id);
  ApiReply claim_draw(const std::string& id);
  ApiReply accept_challenge(const std::string& id);
  ApiReply decline_challenge(const std::string& id, const std::string& reason);
  ApiReply cancel_challenge(const std::string& id);
  ApiReply create_challenge(const std::string& username,
                            const std::multimap<std::string, std::string>& form);
  std::vector<std::string> online_bot_lines(int nb);

  // --- the rest of what a BOT client reads (world_public.cpp) ---
  // POST /api/token/test: for each comma-separated token, {userId, scopes, expires} or null.
  ApiReply token_test(const std::string& body);
  // GET /api/users/status: the known users among `ids` (comma-separated, at most 100).
  ApiReply users_status(const std::string& ids, bool with_game_ids);
  // GET /api/user/{username}: UserExtended; 404 for an unknown user.
  ApiReply user_public(const std::string& username);
  // GET /game/export/{id}: PGN, or GameJson when `as_json`; an ongoing game without its last
  // 3 plies, as lichess delays them against cheating.
  ApiReply export_game(const std::string& id, bool as_json, bool pgn_in_json);
  // GET /api/challenge: the bot's pending challenges, {"in": [...], "out": [...]}.
  ApiReply list_challenges();

  // --- admin API (throw std::invalid_argument for bad input) ---
  nlohmann::json admin_create_challenge(const nlohmann::json& spec);
  nlohmann::json admin_add_user(const nlohmann::json& spec);
  std::optional<nlohmann::json> admin_challenge(const std::string& id);
  ApiReply admin_cancel_challenge(const std::string& id);
  nlohmann::json admin_games();
  std::optional<nlohmann::json> admin_game(const std::string& id);
  std::optional<std::string> admin_pgn(const std::string& id);
  // Acts for the simulated opponent: move, resign, draw, takeback, chat, leave, return.
  ApiReply admin_opponent_action(const std::string& id, const nlohmann::json& action);
  nlohmann::json stats();
  // Drops every open stream (a restart, or a test's "network blip").
  void sever_all_streams();
  // Stops the ticker and the opponent drivers.
  void shutdown();

 private:
  struct GameRecord {
    std::unique_ptr<EmuGame> game;
    OpponentSpec opponent;
    int version = 0;  // bumped on every change; opponent drivers wait on it
    bool finish_announced = false;
    bool claim_announced = false;
    std::map<std::string, std::shared_ptr<LineChannel>> streams;  // by User-Agent
    int stream_opens = 0;
    int bot_moves = 0;
    int rejected_moves = 0;
    int duplicate_moves = 0;              // the bot re-sent the move it had just played
    std::vector<std::int64_t> ply_at_ms;  // when each ply was played (since the start)
    std::string end_date;
  };
  struct Driver {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };

  // All private helpers but bot_game_action expect mu_ held.
  GameRecord* find_game(const std::string& id);
  ApiReply not_found(const std::string& what = "Not found.") const;
  ApiReply error(int status, const std::string& text) const;
  ApiReply bot_game_or_error(const std::string& id, GameRecord*& rec);
  // A bot's action in its game `id` (abort, resign, claims, offers): 404 for no such game, 400
  // with the game's reason when it refuses, else the change announced. Takes mu_ itself.
  struct BotActionResult {
    std::optional<std::string> refused;
    bool changed = true;
  };
  using BotAction = std::function<BotActionResult(EmuGame& game, Color bot, SteadyTime now)>;
  ApiReply bot_game_action(const std::string& id, const BotAction& act);
  std::string new_id();
  // The bot, a simulated user or a player of a game, by id (any case).
  std::optional<PlayerInfo> find_user(const std::string& id) const;
  bool user_playing(const std::string& id) const;
  void emit_event(const nlohmann::json& event);
  void emit_game(GameRecord& rec, const nlohmann::json& line);
  // Sends the new gameState, ends the game's streams when it is over, wakes drivers.
  void changed(GameRecord& rec, SteadyTime now);
  void start_game(Challenge& c, SteadyTime now);
  // 429 with `bot.vsBot.day` when the bot may start no more bot games today; nullopt otherwise.
  std::optional<ApiReply> bot_game_limit() const;
  void tick();
  void ticker_loop();
  void reap_drivers();
  std::int64_t epoch_ms() const;

  // Opponent side (opponent_driver.cpp): the driver loop, and one action taken for the
  // opponent (by the driver or the admin API); mu_ held for opponent_act.
  void run_opponent(std::string id, std::uint64_t seed);
  ApiReply opponent_act(GameRecord& rec, const nlohmann::json& action, SteadyTime now);

  WorldOptions options_;
  FaultPlan faults_;
  RequestLog log_;
  mutable std::mutex mu_;
  std::condition_variable changed_cv_;
  std::mt19937_64 rng_;
  bool bot_titled_ = true;
  std::int64_t created_at_ms_ = 0;
  std::map<std::string, SimUser> users_;  // by id
  std::map<std::string, Challenge> challenges_;
  std::map<std::string, GameRecord> games_;
  std::vector<std::string> game_order_;  // creation order
  std::shared_ptr<LineChannel> event_stream_;
  int event_stream_opens_ = 0;
  bool startup_challenges_issued_ = false;
  int bot_games_started_ = 0;  // games where both players are bots, for bot_games_per_day
  std::vector<Driver> drivers_;
  bool stopping_ = false;
  std::thread ticker_;
};

}  // namespace zh::emulator
