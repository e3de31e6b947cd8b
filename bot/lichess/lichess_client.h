#pragma once
// Typed calls of the lichess Bot API with the HTTP error policy in one place:
//   429          -> that endpoint is paused (60 s or `ratelimit.seconds`); calls fail fast
//   5xx, network -> bounded retries with backoff, only for calls safe to repeat
//   other 4xx    -> returned as is, never retried blindly
// Move POSTs are never retried here: the game session checks the stream first, so a move is
// never sent twice.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bot/lichess/backoff.h"
#include "bot/lichess/events.h"
#include "bot/lichess/http_client.h"
#include "bot/lichess/random_source.h"
#include "bot/lichess/rate_limit.h"
#include "engine/util/clock.h"

namespace zh::bot {

// A move POST that has not answered in this long is abandoned and retried.
inline constexpr Millis kMoveRequestTimeout{3000};

enum class ApiStatus {
  kOk,
  kRateLimited,   // 429 now, or the endpoint is still paused from an earlier 429
  kUnauthorized,  // 401/403: wrong token or missing bot:play scope
  kNotFound,      // 404: game or challenge gone
  kClientError,   // other 4xx: the request itself is wrong (not your turn, illegal move, ...)
  kServerError,   // 5xx after the allowed retries
  kNetworkError,  // no response after the allowed retries
  kInvalidInput,  // refused locally (an id or move that cannot be put in a URL)
  kCancelled,     // shutdown while waiting to retry
};

std::string_view to_string(ApiStatus status);

struct ApiResult {
  ApiStatus status = ApiStatus::kNetworkError;
  int http_status = 0;
  std::string body;
  std::string error;  // human-readable, redacted
  Millis elapsed{0};  // of the last attempt
  int attempts = 0;
  bool ok() const { return status == ApiStatus::kOk; }
};

// Lichess decline reasons (the `reason` form field).
enum class DeclineReason {
  kGeneric,
  kLater,
  kTooFast,
  kTooSlow,
  kTimeControl,
  kRated,
  kCasual,
  kStandard,
  kVariant,
  kNoBot,
  kOnlyBot,
};
std::string_view to_string(DeclineReason reason);  // the API key, e.g. "tooFast"

enum class ChatRoom { kPlayer, kSpectator };

struct RetryPolicy {
  int max_attempts = 3;
  BackoffParams backoff{Millis(250), Millis(2000), 2.0, 0.25};
};

class LichessClient {
 public:
  // Called after every HTTP attempt (metrics): endpoint key, status (0 = network error).
  using Observer = std::function<void(std::string_view endpoint, int http_status, Millis elapsed)>;

  LichessClient(HttpClient& http, Clock& clock, RandomSource random, const CancelToken& cancel,
                RetryPolicy retry = {});

  void set_observer(Observer observer) { observer_ = std::move(observer); }

  ApiResult get_account(std::optional<Account>& out);
  ApiResult get_playing(std::vector<OngoingGame>& out);
  // GET /api/users/status?ids=...: which of these users (ids or names, at most 100) lichess
  // titles BOT; `bots` gets their ids in lower case.
  ApiResult get_bots_among(const std::vector<std::string>& users, std::vector<std::string>& bots);
  ApiResult upgrade_to_bot();

  ApiResult move(std::string_view game_id, std::string_view uci,
                 std::optional<bool> offering_draw = std::nullopt);
  ApiResult chat(std::string_view game_id, ChatRoom room, std::string_view text);
  ApiResult abort_game(std::string_view game_id);
  ApiResult resign(std::string_view game_id);
  ApiResult claim_victory(std::string_view game_id);
  ApiResult answer_draw(std::string_view game_id, bool accept);
  ApiResult answer_takeback(std::string_view game_id, bool accept);
  // A bot's challenge is accepted through its own rate-limit key: lichess answers 429 there
  // when our daily bot-game limit is reached, and that pause must not hold up humans.
  ApiResult accept_challenge(std::string_view challenge_id, bool from_bot = false);
  ApiResult cancel_challenge(std::string_view challenge_id);
  // POST /api/challenge/{username}: a crazyhouse challenge with a clock; `id` gets its id.
  // Never retried (a retry after a lost answer would challenge twice).
  ApiResult create_challenge(std::string_view username, int limit_s, int increment_s, bool rated,
                             std::string& id);
  // GET /api/bot/online (anonymous on lichess; the token does no harm).
  ApiResult get_online_bots(int nb, std::vector<OnlineBot>& out);
  ApiResult decline_challenge(std::string_view challenge_id, DeclineReason reason);

  static std::string event_stream_path() { return "/api/stream/event"; }
  static std::string game_stream_path(std::string_view game_id);

  RateLimitGate& rate_limits() { return gate_; }
  HttpClient& http() { return http_; }

 private:
  enum class Method { kGet, kPost };
  ApiResult call(std::string_view endpoint, Method method, const std::string& path,
                 const std::string& body, bool retryable,
                 std::optional<Millis> timeout = std::nullopt);

  HttpClient& http_;
  Clock& clock_;
  RandomSource random_;
  const CancelToken& cancel_;
  RetryPolicy retry_;
  RateLimitGate gate_;
  Observer observer_;
};

}  // namespace zh::bot
