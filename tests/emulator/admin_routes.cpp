// The admin API (/admin/*, no auth, not logged): scenarios, faults, read-outs and restarts.
// Bodies are JSON; errors are {"error": "..."} with 400 or 404.
#include <stdexcept>

#include "tests/emulator/server.h"

namespace zh::emulator {
namespace {

using nlohmann::json;
using Request = httplib::Request;
using Response = httplib::Response;

void send_json(Response& res, const json& j, int status = 200) {
  res.status = status;
  res.set_content(j.dump(), "application/json");
}

void send_reply(Response& res, const ApiReply& r) {
  res.status = r.status;
  res.set_content(r.body, r.content_type.c_str());
}

// Runs `body` and turns bad input into a 400 with the reason.
template <typename F>
httplib::Server::Handler admin(F body) {
  return [body](const Request& req, Response& res) {
    try {
      body(req, res);
    } catch (const json::exception& e) {
      send_json(res, {{"error", std::string("bad JSON: ") + e.what()}}, 400);
    } catch (const std::invalid_argument& e) {
      send_json(res, {{"error", e.what()}}, 400);
    }
  };
}

json body_json(const Request& req) {
  return req.body.empty() ? json::object() : json::parse(req.body);
}

void add_fault_rules(World& w, const json& j) {
  if (j.is_array()) {
    for (const auto& r : j) w.faults().add(fault_rule_from_json(r));
    return;
  }
  if (j.contains("seed")) w.faults().reseed(j.at("seed").get<std::uint64_t>());
  if (j.contains("rules")) {
    for (const auto& r : j.at("rules")) w.faults().add(fault_rule_from_json(r));
  } else if (!j.contains("seed")) {
    w.faults().add(fault_rule_from_json(j));
  }
}

}  // namespace

void add_admin_routes(httplib::Server& svr, World& w, EmulatorServer& control) {
  svr.Get("/admin/health", admin([&](auto&, auto& res) {
            send_json(res, {{"ok", true}, {"port", control.port()}});
          }));
  svr.Post("/admin/users",
           admin([&](auto& req, auto& res) { send_json(res, w.admin_add_user(body_json(req))); }));
  svr.Post("/admin/challenge", admin([&](auto& req, auto& res) {
             send_json(res, w.admin_create_challenge(body_json(req)));
           }));
  svr.Get(R"(/admin/challenge/([^/]+))", admin([&](auto& req, auto& res) {
            auto c = w.admin_challenge(req.matches[1]);
            if (!c) return send_json(res, {{"error", "No such challenge"}}, 404);
            send_json(res, *c);
          }));
  svr.Post(R"(/admin/challenge/([^/]+)/cancel)", admin([&](auto& req, auto& res) {
             send_reply(res, w.admin_cancel_challenge(req.matches[1]));
           }));
  svr.Get("/admin/games", admin([&](auto&, auto& res) { send_json(res, w.admin_games()); }));
  svr.Get(R"(/admin/games/([^/]+))", admin([&](auto& req, auto& res) {
            auto g = w.admin_game(req.matches[1]);
            if (!g) return send_json(res, {{"error", "No such game"}}, 404);
            send_json(res, *g);
          }));
  svr.Get(R"(/admin/games/([^/]+)/pgn)", admin([&](auto& req, auto& res) {
            auto pgn = w.admin_pgn(req.matches[1]);
            if (!pgn) return send_json(res, {{"error", "No such game"}}, 404);
            res.set_content(*pgn, "application/x-chess-pgn");
          }));
  svr.Post(R"(/admin/games/([^/]+)/opponent)", admin([&](auto& req, auto& res) {
             send_reply(res, w.admin_opponent_action(req.matches[1], body_json(req)));
           }));
  svr.Get("/admin/faults", admin([&](auto&, auto& res) { send_json(res, w.faults().to_json()); }));
  svr.Post("/admin/faults", admin([&](auto& req, auto& res) {
             add_fault_rules(w, body_json(req));
             send_json(res, w.faults().to_json());
           }));
  svr.Post("/admin/faults/clear", admin([&](auto&, auto& res) {
             w.faults().clear();
             send_json(res, {{"ok", true}});
           }));
  svr.Get("/admin/log", admin([&](auto& req, auto& res) {
            const std::int64_t since =
                req.has_param("since") ? std::stoll(req.get_param_value("since")) : 0;
            send_json(res, w.log().since(since));
          }));
  svr.Get("/admin/stats", admin([&](auto&, auto& res) { send_json(res, w.stats()); }));
  svr.Post("/admin/sever-streams", admin([&](auto&, auto& res) {
             w.sever_all_streams();
             send_json(res, {{"ok", true}});
           }));
  svr.Post("/admin/restart", admin([&](auto& req, auto& res) {
             const int down_ms =
                 req.has_param("down_ms") ? std::stoi(req.get_param_value("down_ms")) : 1000;
             control.request_restart(down_ms);
             send_json(res, {{"ok", true}, {"down_ms", down_ms}});
           }));
  svr.Post("/admin/shutdown", admin([&](auto&, auto& res) {
             control.request_shutdown();
             send_json(res, {{"ok", true}});
           }));
}

}  // namespace zh::emulator
