#pragma once
// lichess's opening explorer as a book source: GET <url>?variant=crazyhouse&fen=<FEN> answers
// the moves played from a position in lichess games with their results. One short request,
// no token (the explorer is not lichess.org; the bot's token never goes there), a hard timeout.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bot/lichess/clock.h"

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

class HttpOpeningExplorer final : public OpeningExplorer {
 public:
  // `url`: the endpoint, e.g. https://explorer.lichess.ovh/lichess.
  HttpOpeningExplorer(const std::string& url, Millis timeout);
  ~HttpOpeningExplorer() override;
  ExplorerAnswer query(const std::string& fen) override;

 private:
  std::unique_ptr<HttpClient> http_;
};

}  // namespace zh::bot
