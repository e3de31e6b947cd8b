// The lichess Bot API routes: each is guarded by fault injection, Bearer auth and (for
// /api/bot/*) the BOT title check, then answered by the World, then logged.
#include <algorithm>
#include <functional>
#include <optional>
#include <string>

#include "tests/emulator/ndjson_response.h"
#include "tests/emulator/server.h"

namespace zh::emulator {
namespace {

using Request = httplib::Request;
using Response = httplib::Response;
using Decision = FaultPlan::Decision;
using Handler = std::function<void(const Request&, Response&, const Decision&)>;

enum Guard : unsigned { kNone = 0, kAuth = 1, kBot = 2, kStream = 4 };

void reply(Response& res, const ApiReply& r) {
  res.status = r.status;
  res.set_content(r.body, r.content_type.c_str());
}

void reply_fault(Response& res, const HttpFault& f, const std::string& endpoint) {
  res.status = f.status;
  if (f.status == 429 && f.ratelimit_body) {
    res.set_content(ratelimit_json_body(endpoint, f.ratelimit_seconds), "application/json");
  } else if (f.status == 429) {
    res.set_content(ratelimit_html_body(), "text/html; charset=utf-8");
  } else {
    res.set_content("<html><body><h1>" + std::to_string(f.status) +
                        "</h1><p>lichess.org is temporarily unavailable.</p></body></html>",
                    "text/html; charset=utf-8");
  }
}

std::string bearer(const Request& req) {
  const std::string h = req.get_header_value("Authorization");
  constexpr std::string_view kPrefix = "Bearer ";
  return h.rfind(kPrefix, 0) == 0 ? h.substr(kPrefix.size()) : "";
}

httplib::Server::Handler guarded(World& world, std::string endpoint, unsigned guards,
                                 Handler handler) {
  return [&world, endpoint, guards, handler](const Request& req, Response& res) {
    const Decision d = world.faults().decide(endpoint, guards & kStream);
    if (d.http) {
      reply_fault(res, *d.http, endpoint);
    } else if ((guards & kAuth) && !world.token_ok(bearer(req))) {
      reply(res, ApiReply{401, R"({"error":"No such token"})"});
    } else if ((guards & kBot) && !world.bot_titled()) {
      reply(res,
            ApiReply{400, R"({"error":"This endpoint can only be used with a Bot account. See )"
                          R"(https://lichess.org/api#operation/botAccountUpgrade"})"});
    } else {
      handler(req, res, d);
    }
    // A streamed response has no status yet (-1) while its body is still to come: it is a 200.
    world.log().add(req.method, req.path, endpoint, res.status < 0 ? 200 : res.status);
  };
}

NdjsonOptions stream_options(World& world, const Decision& d) {
  NdjsonOptions o;
  o.heartbeat_ms = world.options().heartbeat_ms;
  o.faults = d.stream;
  o.seed = d.stream_seed;
  return o;
}

std::optional<bool> trueish_param(const Request& req, const std::string& name) {
  if (!req.has_param(name.c_str())) return std::nullopt;
  const std::string v = req.get_param_value(name.c_str());
  return v == "true" || v == "yes" || v == "1";
}

bool trueish(const std::string& v) { return v == "true" || v == "yes" || v == "1"; }

int int_param(const Request& req, const char* name, int fallback, int lo, int hi) {
  if (!req.has_param(name)) return fallback;
  try {
    return std::clamp(std::stoi(req.get_param_value(name)), lo, hi);
  } catch (const std::exception&) {
    return fallback;
  }
}

}  // namespace

void add_api_routes(httplib::Server& svr, World& w) {
  constexpr unsigned kBotApi = kAuth | kBot;
  svr.Get("/api/account",
          guarded(w, "account", kAuth, [&w](auto&, auto& res, auto&) { reply(res, w.account()); }));
  svr.Get("/api/account/playing",
          guarded(w, "account_playing", kAuth, [&w](auto& req, auto& res, auto&) {
            reply(res, w.account_playing(int_param(req, "nb", 9, 1, 50)));
          }));
  svr.Post(
      "/api/bot/account/upgrade",
      guarded(w, "bot_upgrade", kAuth, [&w](auto&, auto& res, auto&) { reply(res, w.upgrade()); }));
  svr.Get("/api/stream/event",
          guarded(w, "event_stream", kAuth | kStream, [&w](auto&, auto& res, auto& d) {
            serve_ndjson(res, w.open_event_stream(), stream_options(w, d));
            w.issue_startup_challenges();
          }));
  svr.Get(R"(/api/bot/game/stream/([^/]+))",
          guarded(w, "game_stream", kBotApi | kStream, [&w](auto& req, auto& res, auto& d) {
            ApiReply err;
            auto ch = w.open_game_stream(req.matches[1], req.get_header_value("User-Agent"), err);
            if (!ch) return reply(res, err);
            serve_ndjson(res, ch, stream_options(w, d));
          }));
  svr.Post(R"(/api/bot/game/([^/]+)/move/([^/]+))",
           guarded(w, "move", kBotApi, [&w](auto& req, auto& res, auto&) {
             reply(res, w.move(req.matches[1], req.matches[2], trueish_param(req, "offeringDraw")));
           }));
  svr.Post(R"(/api/bot/game/([^/]+)/chat)",
           guarded(w, "chat", kBotApi, [&w](auto& req, auto& res, auto&) {
             reply(res, w.chat_post(req.matches[1], req.get_param_value("room"),
                                    req.get_param_value("text")));
           }));
  svr.Get(R"(/api/bot/game/([^/]+)/chat)",
          guarded(w, "chat_get", kBotApi,
                  [&w](auto& req, auto& res, auto&) { reply(res, w.chat_get(req.matches[1])); }));
  svr.Post(R"(/api/bot/game/([^/]+)/abort)",
           guarded(w, "abort", kBotApi,
                   [&w](auto& req, auto& res, auto&) { reply(res, w.abort(req.matches[1])); }));
  svr.Post(R"(/api/bot/game/([^/]+)/resign)",
           guarded(w, "resign", kBotApi,
                   [&w](auto& req, auto& res, auto&) { reply(res, w.resign(req.matches[1])); }));
  svr.Post(R"(/api/bot/game/([^/]+)/draw/([^/]+))",
           guarded(w, "draw", kBotApi, [&w](auto& req, auto& res, auto&) {
             reply(res, w.draw(req.matches[1], trueish(req.matches[2])));
           }));
  svr.Post(R"(/api/bot/game/([^/]+)/takeback/([^/]+))",
           guarded(w, "takeback", kBotApi, [&w](auto& req, auto& res, auto&) {
             reply(res, w.takeback(req.matches[1], trueish(req.matches[2])));
           }));
  svr.Post(R"(/api/bot/game/([^/]+)/claim-victory)",
           guarded(w, "claim_victory", kBotApi, [&w](auto& req, auto& res, auto&) {
             reply(res, w.claim_victory(req.matches[1]));
           }));
  svr.Post(R"(/api/bot/game/([^/]+)/claim-draw)",
           guarded(w, "claim_draw", kBotApi, [&w](auto& req, auto& res, auto&) {
             reply(res, w.claim_draw(req.matches[1]));
           }));
  svr.Post(R"(/api/challenge/([^/]+)/accept)",
           guarded(w, "challenge_accept", kAuth, [&w](auto& req, auto& res, auto&) {
             reply(res, w.accept_challenge(req.matches[1]));
           }));
  svr.Post(R"(/api/challenge/([^/]+)/decline)",
           guarded(w, "challenge_decline", kAuth, [&w](auto& req, auto& res, auto&) {
             reply(res, w.decline_challenge(req.matches[1], req.get_param_value("reason")));
           }));
  svr.Post(R"(/api/challenge/([^/]+)/cancel)",
           guarded(w, "challenge_cancel", kAuth, [&w](auto& req, auto& res, auto&) {
             reply(res, w.cancel_challenge(req.matches[1]));
           }));
  svr.Post(R"(/api/challenge/([^/]+))",
           guarded(w, "challenge_create", kAuth, [&w](auto& req, auto& res, auto&) {
             std::multimap<std::string, std::string> form(req.params.begin(), req.params.end());
             reply(res, w.create_challenge(req.matches[1], form));
           }));
  svr.Get("/api/bot/online", guarded(w, "bot_online", kNone, [&w](auto& req, auto& res, auto&) {
            std::string body;
            for (const auto& line : w.online_bot_lines(int_param(req, "nb", 100, 1, 512)))
              body += line + "\n";
            res.set_content(body, "application/x-ndjson");
          }));
  // What a BOT client reads besides the Bot API (world_public.cpp).
  svr.Post("/api/token/test", guarded(w, "token_test", kNone, [&w](auto& req, auto& res, auto&) {
             reply(res, w.token_test(req.body));
           }));
  svr.Get("/api/users/status", guarded(w, "users_status", kNone, [&w](auto& req, auto& res, auto&) {
            reply(res, w.users_status(req.get_param_value("ids"),
                                      trueish_param(req, "withGameIds").value_or(false)));
          }));
  svr.Get(R"(/api/user/([^/]+))", guarded(w, "user", kNone, [&w](auto& req, auto& res, auto&) {
            reply(res, w.user_public(req.matches[1]));
          }));
  svr.Get(R"(/game/export/([^/]+))",
          guarded(w, "game_export", kNone, [&w](auto& req, auto& res, auto&) {
            // PGN unless the client asks for JSON (lichess reads the Accept header).
            const bool json =
                req.get_header_value("Accept").find("application/json") != std::string::npos;
            reply(res, w.export_game(req.matches[1], json,
                                     trueish_param(req, "pgnInJson").value_or(false)));
          }));
  svr.Get("/api/challenge", guarded(w, "challenge_list", kAuth, [&w](auto&, auto& res, auto&) {
            reply(res, w.list_challenges());
          }));
  svr.set_error_handler([&w](const Request& req, Response& res) {
    if (res.status == 404 && res.body.empty()) {
      res.set_content(R"({"error":"Not found."})", "application/json");
      if (req.path.rfind("/admin", 0) != 0) w.log().add(req.method, req.path, "unknown", 404);
    }
  });
}

}  // namespace zh::emulator
