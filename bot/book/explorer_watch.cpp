#include "bot/book/explorer_watch.h"

#include <spdlog/spdlog.h>

#include <utility>

namespace zh::bot {

ExplorerWatch::ExplorerWatch(std::shared_ptr<OpeningExplorer> inner, std::string url,
                             bool token_sent)
    : inner_(std::move(inner)), url_(std::move(url)), token_sent_(token_sent) {}

ExplorerAnswer ExplorerWatch::query(const std::string& fen) {
  ExplorerAnswer answer = inner_->query(fen);
  note(answer);
  return answer;
}

void ExplorerWatch::note(const ExplorerAnswer& answer) {
  bool started_failing = false, recovered = false;
  {
    std::lock_guard lock(mutex_);
    const bool failed = !answer.error.empty();
    (failed ? counts_.failed : counts_.answered) += 1;
    started_failing = failed && !counts_.failing;
    recovered = !failed && counts_.failing;
    counts_.failing = failed;
  }
  if (started_failing) {
    const bool refused = answer.error == "HTTP 401" || answer.error == "HTTP 403";
    const char* hint = !refused      ? ""
                       : token_sent_ ? " (the token was sent: is it revoked?)"
                                     : " (lichess's explorer wants an API token; zhbot sends its "
                                       "own to https://explorer.lichess.org only, or to this URL "
                                       "with book_explorer_send_token: true)";
    spdlog::warn(
        "opening explorer {} failed: {}{}; the search plays instead until it answers again "
        "(counted in /metrics as zhbot_explorer_requests_total{{outcome=\"failed\"}}, not "
        "logged again)",
        url_, answer.error, hint);
  } else if (recovered) {
    spdlog::info("opening explorer {} is back: it answered again", url_);
  }
}

ExplorerCounts ExplorerWatch::counts() const {
  std::lock_guard lock(mutex_);
  return counts_;
}

}  // namespace zh::bot
