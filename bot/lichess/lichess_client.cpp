#include "bot/lichess/lichess_client.h"

#include <algorithm>
#include <utility>

#include "bot/lichess/redact.h"

namespace zh::bot {

namespace {

// UCI move text as lichess accepts it: e2e4, e7e8q, P@e4, e1h1.
bool is_valid_uci(std::string_view uci) {
  if (uci.size() < 4 || uci.size() > 5) return false;
  for (char c : uci) {
    const bool ok = (c >= 'a' && c <= 'h') || (c >= '1' && c <= '8') || c == '@' || c == 'q' ||
                    c == 'r' || c == 'n' || c == 'P' || c == 'N' || c == 'B' || c == 'R' ||
                    c == 'Q';
    if (!ok) return false;
  }
  return true;
}

ApiResult invalid(std::string what) {
  ApiResult r;
  r.status = ApiStatus::kInvalidInput;
  r.error = redact(what);
  return r;
}

ApiStatus classify(int http_status) {
  if (http_status == 0) return ApiStatus::kNetworkError;
  if (http_status >= 200 && http_status < 300) return ApiStatus::kOk;
  if (http_status == 429) return ApiStatus::kRateLimited;
  if (http_status == 401 || http_status == 403) return ApiStatus::kUnauthorized;
  if (http_status == 404) return ApiStatus::kNotFound;
  if (http_status >= 500) return ApiStatus::kServerError;
  return ApiStatus::kClientError;
}

}  // namespace

std::string_view to_string(ApiStatus status) {
  switch (status) {
    case ApiStatus::kOk:
      return "ok";
    case ApiStatus::kRateLimited:
      return "rate limited";
    case ApiStatus::kUnauthorized:
      return "unauthorized";
    case ApiStatus::kNotFound:
      return "not found";
    case ApiStatus::kClientError:
      return "client error";
    case ApiStatus::kServerError:
      return "server error";
    case ApiStatus::kNetworkError:
      return "network error";
    case ApiStatus::kInvalidInput:
      return "invalid input";
    case ApiStatus::kCancelled:
      return "cancelled";
  }
  return "?";
}

std::string_view to_string(DeclineReason reason) {
  switch (reason) {
    case DeclineReason::kGeneric:
      return "generic";
    case DeclineReason::kLater:
      return "later";
    case DeclineReason::kTooFast:
      return "tooFast";
    case DeclineReason::kTooSlow:
      return "tooSlow";
    case DeclineReason::kTimeControl:
      return "timeControl";
    case DeclineReason::kRated:
      return "rated";
    case DeclineReason::kCasual:
      return "casual";
    case DeclineReason::kStandard:
      return "standard";
    case DeclineReason::kVariant:
      return "variant";
    case DeclineReason::kNoBot:
      return "noBot";
    case DeclineReason::kOnlyBot:
      return "onlyBot";
  }
  return "generic";
}

LichessClient::LichessClient(HttpClient& http, Clock& clock, RandomSource random,
                             const CancelToken& cancel, RetryPolicy retry)
    : http_(http),
      clock_(clock),
      random_(std::move(random)),
      cancel_(cancel),
      retry_(retry),
      gate_(clock) {}

ApiResult LichessClient::call(std::string_view endpoint, Method method, const std::string& path,
                              const std::string& body, bool retryable,
                              std::optional<Millis> timeout) {
  ApiResult result;
  if (const Millis left = gate_.remaining(endpoint); left.count() > 0) {
    result.status = ApiStatus::kRateLimited;
    result.error = "endpoint '" + std::string(endpoint) + "' paused after HTTP 429 for another " +
                   std::to_string((left.count() + 999) / 1000) + " s";
    return result;
  }
  Backoff backoff(retry_.backoff, random_);
  const int max_attempts = retryable ? std::max(1, retry_.max_attempts) : 1;
  for (int attempt = 1;; ++attempt) {
    HttpResponse response =
        method == Method::kGet ? http_.get(path) : http_.post(path, body, timeout);
    if (observer_) observer_(endpoint, response.status, response.elapsed);
    result.attempts = attempt;
    result.http_status = response.status;
    result.elapsed = response.elapsed;
    result.status = classify(response.status);
    result.body = std::move(response.body);
    if (result.status == ApiStatus::kOk) {
      result.error.clear();
      return result;
    }
    if (result.status == ApiStatus::kNetworkError) {
      result.error = response.error;
    } else {
      result.error =
          redact("HTTP " + std::to_string(response.status) + ": " + error_text(result.body));
    }
    if (result.status == ApiStatus::kRateLimited) {
      gate_.block(endpoint, rate_limit_pause(result.body, response.retry_after_s));
      return result;
    }
    const bool transient =
        result.status == ApiStatus::kServerError || result.status == ApiStatus::kNetworkError;
    if (!transient || attempt >= max_attempts) return result;
    if (!clock_.sleep_for(backoff.next(), cancel_)) {
      result.status = ApiStatus::kCancelled;
      return result;
    }
  }
}

ApiResult LichessClient::get_account(std::optional<Account>& out) {
  ApiResult r = call("account", Method::kGet, "/api/account", {}, true);
  if (r.ok()) {
    std::string error;
    out = parse_account(r.body, error);
    if (!out) {
      r.status = ApiStatus::kServerError;
      r.error = "unexpected /api/account response: " + error;
    }
  }
  return r;
}

ApiResult LichessClient::get_playing(std::vector<OngoingGame>& out) {
  ApiResult r = call("playing", Method::kGet, "/api/account/playing?nb=50", {}, true);
  if (r.ok()) {
    std::string error;
    auto games = parse_playing(r.body, error);
    if (!games) {
      r.status = ApiStatus::kServerError;
      r.error = "unexpected /api/account/playing response: " + error;
    } else {
      out = std::move(*games);
    }
  }
  return r;
}

ApiResult LichessClient::get_bots_among(const std::vector<std::string>& users,
                                        std::vector<std::string>& bots) {
  std::string ids;
  for (const auto& user : users) {
    if (!is_valid_username(user)) return invalid("invalid user name");
    ids += (ids.empty() ? "" : ",") + user;
  }
  ApiResult r = call("users_status", Method::kGet, "/api/users/status?ids=" + ids, {}, true);
  if (r.ok()) {
    std::string error;
    auto found = parse_bot_ids(r.body, error);
    if (!found) {
      r.status = ApiStatus::kServerError;
      r.error = "unexpected /api/users/status response: " + error;
    } else {
      bots = std::move(*found);
    }
  }
  return r;
}

ApiResult LichessClient::upgrade_to_bot() {
  // Irreversible: never retried automatically.
  return call("upgrade", Method::kPost, "/api/bot/account/upgrade", {}, false);
}

ApiResult LichessClient::move(std::string_view game_id, std::string_view uci,
                              std::optional<bool> offering_draw) {
  if (!is_valid_id(game_id)) return invalid("invalid game id");
  if (!is_valid_uci(uci)) return invalid("invalid move text '" + std::string(uci) + "'");
  std::string path = "/api/bot/game/" + std::string(game_id) + "/move/" + std::string(uci);
  if (offering_draw) path += *offering_draw ? "?offeringDraw=true" : "?offeringDraw=false";
  // A move answers in milliseconds; one that hangs is better given up soon and sent again
  // (the session checks the stream first, so it is never played twice).
  const Millis timeout = std::min(kMoveRequestTimeout, http_.settings().request_timeout);
  return call("move", Method::kPost, path, {}, false, timeout);
}

ApiResult LichessClient::chat(std::string_view game_id, ChatRoom room, std::string_view text) {
  if (!is_valid_id(game_id)) return invalid("invalid game id");
  const std::string body = std::string("room=") +
                           (room == ChatRoom::kPlayer ? "player" : "spectator") +
                           "&text=" + HttpClient::url_encode(text);
  return call("chat", Method::kPost, "/api/bot/game/" + std::string(game_id) + "/chat", body, true);
}

ApiResult LichessClient::abort_game(std::string_view game_id) {
  if (!is_valid_id(game_id)) return invalid("invalid game id");
  return call("abort", Method::kPost, "/api/bot/game/" + std::string(game_id) + "/abort", {}, true);
}

ApiResult LichessClient::resign(std::string_view game_id) {
  if (!is_valid_id(game_id)) return invalid("invalid game id");
  return call("resign", Method::kPost, "/api/bot/game/" + std::string(game_id) + "/resign", {},
              true);
}

ApiResult LichessClient::claim_victory(std::string_view game_id) {
  if (!is_valid_id(game_id)) return invalid("invalid game id");
  return call("claim-victory", Method::kPost,
              "/api/bot/game/" + std::string(game_id) + "/claim-victory", {}, true);
}

ApiResult LichessClient::answer_draw(std::string_view game_id, bool accept) {
  if (!is_valid_id(game_id)) return invalid("invalid game id");
  return call("draw", Method::kPost,
              "/api/bot/game/" + std::string(game_id) + "/draw/" + (accept ? "yes" : "no"), {},
              true);
}

ApiResult LichessClient::answer_takeback(std::string_view game_id, bool accept) {
  if (!is_valid_id(game_id)) return invalid("invalid game id");
  return call("takeback", Method::kPost,
              "/api/bot/game/" + std::string(game_id) + "/takeback/" + (accept ? "yes" : "no"), {},
              true);
}

ApiResult LichessClient::accept_challenge(std::string_view challenge_id, bool from_bot) {
  if (!is_valid_id(challenge_id)) return invalid("invalid challenge id");
  return call(from_bot ? "challenge-accept-bot" : "challenge-accept", Method::kPost,
              "/api/challenge/" + std::string(challenge_id) + "/accept", {}, true);
}

ApiResult LichessClient::cancel_challenge(std::string_view challenge_id) {
  if (!is_valid_id(challenge_id)) return invalid("invalid challenge id");
  return call("challenge-cancel", Method::kPost,
              "/api/challenge/" + std::string(challenge_id) + "/cancel", {}, true);
}

ApiResult LichessClient::create_challenge(std::string_view username, int limit_s, int increment_s,
                                          bool rated, std::string& id) {
  if (!is_valid_username(username)) return invalid("invalid user name");
  const std::string body =
      "variant=crazyhouse&color=random&rated=" + std::string(rated ? "true" : "false") +
      "&clock.limit=" + std::to_string(limit_s) + "&clock.increment=" + std::to_string(increment_s);
  ApiResult r = call("challenge-create", Method::kPost, "/api/challenge/" + std::string(username),
                     body, false);
  if (r.ok()) {
    id = parse_challenge_id(r.body);
    if (id.empty()) {
      r.status = ApiStatus::kServerError;
      r.error = "the challenge answer holds no challenge id";
    }
  }
  return r;
}

ApiResult LichessClient::get_online_bots(int nb, std::vector<OnlineBot>& out) {
  ApiResult r =
      call("bot-online", Method::kGet, "/api/bot/online?nb=" + std::to_string(nb), {}, true);
  if (r.ok()) out = parse_online_bots(r.body);
  return r;
}

ApiResult LichessClient::decline_challenge(std::string_view challenge_id, DeclineReason reason) {
  if (!is_valid_id(challenge_id)) return invalid("invalid challenge id");
  return call("challenge-decline", Method::kPost,
              "/api/challenge/" + std::string(challenge_id) + "/decline",
              "reason=" + std::string(to_string(reason)), true);
}

std::string LichessClient::game_stream_path(std::string_view game_id) {
  return "/api/bot/game/stream/" + std::string(game_id);
}

}  // namespace zh::bot
