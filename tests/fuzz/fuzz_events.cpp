// NDJSON from lichess: the byte stream split into lines (in pieces, as network reads end
// anywhere), each line parsed as an account event and as a game-stream event, and the
// bodies of /api/account and /api/account/playing. Every input must give a value or an error.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "bot/lichess/events.h"
#include "bot/lichess/ndjson_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  zh::bot::NdjsonReader reader;
  // The first byte decides where the stream is cut, so lines arrive split across reads.
  const std::size_t piece = size ? 1 + data[0] % 64 : 1;
  for (std::size_t at = 0; at < input.size(); at += piece) {
    reader.feed(input.substr(at, piece), [](std::string_view line) {
      std::string error;
      (void)zh::bot::parse_event(line, error);
      (void)zh::bot::parse_game_event(line, error);
      (void)zh::bot::is_valid_id(line);
      return true;
    });
  }
  std::string error;
  (void)zh::bot::parse_account(input, error);
  (void)zh::bot::parse_playing(input, error);
  (void)zh::bot::error_text(input);
  return 0;
}
