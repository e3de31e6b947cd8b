#include "bot/book/opening_explorer.h"

#include <cctype>
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

bool explorer_gets_token(const std::string& url, bool operator_opted_in) {
  if (operator_opted_in) return true;
  const std::string scheme = "https://";
  if (url.rfind(scheme, 0) != 0) return false;  // never in clear text
  // The authority ends at the first '/', '?' or '#'; a '@' in it would put a user part before
  // the real host ("https://explorer.lichess.org@elsewhere/").
  const std::size_t end = url.find_first_of("/?#", scheme.size());
  const std::string authority = url.substr(scheme.size(), end - scheme.size());
  if (authority.find('@') != std::string::npos) return false;
  const std::string host = authority.substr(0, authority.find(':'));
  std::string lowered;
  for (const char c : host) lowered += char(std::tolower(static_cast<unsigned char>(c)));
  return lowered == kLichessExplorerHost;
}

HttpOpeningExplorer::HttpOpeningExplorer(const std::string& url, Millis timeout,
                                         const std::string& token) {
  HttpSettings s;
  s.base_url = url;
  s.token = token;
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
