#include "bot/lichess/ndjson_reader.h"

namespace zh::bot {

bool NdjsonReader::feed(std::string_view bytes,
                        const std::function<bool(std::string_view)>& on_line) {
  while (!bytes.empty()) {
    const std::size_t nl = bytes.find('\n');
    const std::string_view piece = bytes.substr(0, nl);
    if (!discarding_) {
      if (partial_.size() + piece.size() > kMaxLineBytes) {
        partial_.clear();
        discarding_ = true;
        ++dropped_;
      } else {
        partial_.append(piece);
      }
    }
    if (nl == std::string_view::npos) return true;
    bytes.remove_prefix(nl + 1);
    if (discarding_) {
      discarding_ = false;
      continue;
    }
    if (!finish_line(on_line)) return false;
  }
  return true;
}

bool NdjsonReader::finish_line(const std::function<bool(std::string_view)>& on_line) {
  std::string line = std::move(partial_);
  partial_.clear();
  if (!line.empty() && line.back() == '\r') line.pop_back();
  // Whitespace-only lines are keep-alives too.
  if (line.find_first_not_of(" \t\r") == std::string::npos) {
    ++heartbeats_;
    return true;
  }
  ++lines_;
  return on_line(line);
}

void NdjsonReader::reset() {
  partial_.clear();
  discarding_ = false;
}

}  // namespace zh::bot
