#pragma once
// The opening explorer as the operator sees it: every query counted (answered or failed, for
// /metrics), and a refusal or failure said once in the log when it starts, not on every move
// or every game; once the explorer answers again, that is said once too.

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "bot/book/opening_explorer.h"

namespace zh::bot {

struct ExplorerCounts {
  std::uint64_t answered = 0;
  std::uint64_t failed = 0;
  bool failing = false;  // the last query failed
};

class ExplorerWatch final : public OpeningExplorer {
 public:
  // `url` names the explorer in the log; `token_sent` adds a hint to a refusal.
  ExplorerWatch(std::shared_ptr<OpeningExplorer> inner, std::string url, bool token_sent);
  ExplorerAnswer query(const std::string& fen) override;
  ExplorerCounts counts() const;

 private:
  void note(const ExplorerAnswer& answer);

  std::shared_ptr<OpeningExplorer> inner_;
  std::string url_;
  bool token_sent_;
  mutable std::mutex mutex_;
  ExplorerCounts counts_;
};

}  // namespace zh::bot
