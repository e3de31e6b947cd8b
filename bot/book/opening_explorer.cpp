#include "bot/book/opening_explorer.h"

#include <nlohmann/json.hpp>

#include "bot/lichess/http_client.h"

namespace zh::bot {

ExplorerAnswer parse_explorer_answer(std::string_view body) {
  ExplorerAnswer a;
  try {
    const nlohmann::json j = nlohmann::json::parse(body);
    for (const auto& m : j.at("moves")) {
      ExplorerMove move;
      move.uci = m.at("uci").get<std::string>();
      move.white = m.value("white", std::int64_t(0));
      move.draws = m.value("draws", std::int64_t(0));
      move.black = m.value("black", std::int64_t(0));
      if (move.white < 0 || move.draws < 0 || move.black < 0)
        throw std::out_of_range("negative game count");
      a.moves.push_back(std::move(move));
    }
  } catch (const std::exception& e) {
    a.moves.clear();
    a.error = std::string("unexpected explorer answer: ") + e.what();
  }
  return a;
}

HttpOpeningExplorer::HttpOpeningExplorer(const std::string& url, Millis timeout) {
  HttpSettings s;
  s.base_url = url;
  s.token.clear();  // never the bot's token
  s.user_agent = "zhbot/" ZH_VERSION;
  s.connect_timeout = timeout;
  s.request_timeout = timeout;
  http_ = std::make_unique<HttpClient>(s);
}

HttpOpeningExplorer::~HttpOpeningExplorer() = default;

ExplorerAnswer HttpOpeningExplorer::query(const std::string& fen) {
  const HttpResponse r = http_->get("?variant=crazyhouse&fen=" + HttpClient::url_encode(fen));
  if (r.status != 200) {
    ExplorerAnswer a;
    a.error = r.status == 0 ? "no answer (" + r.error + ")" : "HTTP " + std::to_string(r.status);
    return a;
  }
  return parse_explorer_answer(r.body);
}

}  // namespace zh::bot
