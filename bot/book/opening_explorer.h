#pragma once
// lichess's opening explorer as a book source: GET <url>?variant=crazyhouse&fen=<FEN> answers
// the moves played from a position in lichess games with their results. One short request with
// a hard timeout. Since March 2026 lichess's explorer (explorer.lichess.org) answers only
// requests that carry an API token: the bot's own goes to that host alone, never to another URL
// unless the operator opts in (book_explorer_send_token).

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/util/clock.h"

namespace zh::bot {

class HttpClient;

struct ExplorerMove {
  std::string uci;
  std::int64_t white = 0, draws = 0, black = 0;  // games won by White, drawn, won by Black
  std::int64_t games() const { return white + draws + black; }
};

struct ExplorerAnswer {
  std::vector<ExplorerMove> moves;
  std::string error;  // empty: the explorer answered (maybe with no moves)
};

// Parses the explorer's JSON ({"moves": [{"uci", "white", "draws", "black"}, ...]}); fills
// `error` when the body is not that.
ExplorerAnswer parse_explorer_answer(std::string_view body);

class OpeningExplorer {
 public:
  virtual ~OpeningExplorer() = default;
  // Blocks for at most the configured timeout (plus the connection's).
  virtual ExplorerAnswer query(const std::string& fen) = 0;
};

// lichess's own explorer, the one host the bot's token goes to unasked.
inline constexpr const char* kLichessExplorerHost = "explorer.lichess.org";

// Whether the bot's token may travel to `url`: an https URL whose host is exactly
// kLichessExplorerHost (no user part, any port), or any URL when the operator opted in.
bool explorer_gets_token(const std::string& url, bool operator_opted_in);

class HttpOpeningExplorer final : public OpeningExplorer {
 public:
  // `url`: the endpoint, e.g. https://explorer.lichess.org/lichess. `token`: sent as a Bearer
  // token when not empty (the caller decides with explorer_gets_token).
  HttpOpeningExplorer(const std::string& url, Millis timeout, const std::string& token = {});
  ~HttpOpeningExplorer() override;
  ExplorerAnswer query(const std::string& fen) override;

 private:
  std::unique_ptr<HttpClient> http_;
};

}  // namespace zh::bot
