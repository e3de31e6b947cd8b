#pragma once
// Splits a byte stream into NDJSON lines. Network reads end anywhere, so a line may arrive in
// pieces; lichess sends empty lines as keep-alives, which count as liveness but carry no event.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace zh::bot {

class NdjsonReader {
 public:
  // Lines longer than this are dropped whole (a misbehaving server must not exhaust memory).
  static constexpr std::size_t kMaxLineBytes = 1 << 20;

  // Feeds the next bytes; calls `on_line` for every complete non-empty line, without its
  // "\n" or "\r\n". Returns false when `on_line` asked to stop (it returns false).
  bool feed(std::string_view bytes, const std::function<bool(std::string_view)>& on_line);

  // Forgets a partial line (after a reconnect the next bytes start a new line).
  void reset();

  std::size_t heartbeats() const { return heartbeats_; }
  std::size_t lines() const { return lines_; }
  std::size_t dropped_oversize() const { return dropped_; }

 private:
  bool finish_line(const std::function<bool(std::string_view)>& on_line);

  std::string partial_;
  bool discarding_ = false;  // inside an oversize line: skip to its end
  std::size_t heartbeats_ = 0;
  std::size_t lines_ = 0;
  std::size_t dropped_ = 0;
};

}  // namespace zh::bot
