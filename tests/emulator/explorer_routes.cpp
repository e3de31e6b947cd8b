// A stand-in for lichess's opening explorer (explorer.lichess.org), for the bot's book tests:
//   GET  /explorer/lichess?variant=crazyhouse&fen=FEN  -> {"moves": [...]} for that position
//   POST /admin/explorer  {"positions": [{"fen", "moves": [{"uci","white","draws","black"}]}],
//                          "status": 200, "delay_ms": 0}  (replaces the table; status and
//                          delay_ms make every answer fail or come late)
//   GET  /admin/explorer  {"requests": N, "fens": [...], "variants": [...],
//                          "with_authorization": N (requests that carried an Authorization
//                          header: a stand-in at another URL must never see the bot's token)}
// Positions match on the first four FEN fields (no move counters). Unknown positions answer
// an empty move list, as the real explorer does.
#include <chrono>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "tests/emulator/server.h"

namespace zh::emulator {
namespace {

using nlohmann::json;

std::string first_four_fields(const std::string& fen) {
  std::istringstream in(fen);
  std::string field, out;
  for (int i = 0; i < 4 && in >> field; ++i) {
    if (!out.empty()) out += ' ';
    out += field;
  }
  return out;
}

struct ExplorerTable {
  std::mutex mutex;
  std::map<std::string, json> moves;  // first four FEN fields -> moves array
  int status = 200;
  int delay_ms = 0;
  std::vector<std::string> fens, variants;
  int with_authorization = 0;
};

}  // namespace

void add_explorer_routes(httplib::Server& server) {
  auto table = std::make_shared<ExplorerTable>();
  server.Get("/explorer/lichess", [table](const httplib::Request& req, httplib::Response& res) {
    json moves = json::array();
    int status = 200, delay_ms = 0;
    {
      std::lock_guard lock(table->mutex);
      const std::string fen = req.get_param_value("fen");
      table->fens.push_back(fen);
      table->variants.push_back(req.get_param_value("variant"));
      table->with_authorization += req.has_header("Authorization");
      if (auto it = table->moves.find(first_four_fields(fen)); it != table->moves.end())
        moves = it->second;
      status = table->status;
      delay_ms = table->delay_ms;
    }
    if (delay_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    res.status = status;
    if (status != 200) {
      res.set_content(R"({"error":"explorer unavailable"})", "application/json");
      return;
    }
    res.set_content(json{{"white", 0}, {"draws", 0}, {"black", 0}, {"moves", moves}}.dump(),
                    "application/json");
  });
  server.Post("/admin/explorer", [table](const httplib::Request& req, httplib::Response& res) {
    try {
      const json body = req.body.empty() ? json::object() : json::parse(req.body);
      std::lock_guard lock(table->mutex);
      table->moves.clear();
      for (const auto& p : body.value("positions", json::array()))
        table->moves[first_four_fields(p.at("fen").get<std::string>())] = p.at("moves");
      table->status = body.value("status", 200);
      table->delay_ms = body.value("delay_ms", 0);
      res.set_content(R"({"ok":true})", "application/json");
    } catch (const json::exception& e) {
      res.status = 400;
      res.set_content(json{{"error", std::string("bad JSON: ") + e.what()}}.dump(),
                      "application/json");
    }
  });
  server.Get("/admin/explorer", [table](const httplib::Request&, httplib::Response& res) {
    std::lock_guard lock(table->mutex);
    res.set_content(json{{"requests", table->fens.size()},
                         {"fens", table->fens},
                         {"variants", table->variants},
                         {"with_authorization", table->with_authorization}}
                        .dump(),
                    "application/json");
  });
}

}  // namespace zh::emulator
