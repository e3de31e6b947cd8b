#include "bot/config/matchmaking_options.h"

#include <charconv>

namespace zh::bot {

namespace {

bool parse_int(std::string_view text, int& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

// The clock.limit values lichess accepts: 0, 15, 30, 45, 60, 90, then whole minutes.
bool valid_limit(int s) {
  if (s == 0 || s == 15 || s == 30 || s == 45 || s == 60 || s == 90) return true;
  return s > 0 && s <= 10800 && s % 60 == 0;
}

}  // namespace

bool parse_seek_clock(const std::string& text, SeekClock& out, std::string& why) {
  const auto plus = text.find('+');
  if (plus == std::string::npos ||
      !parse_int(std::string_view(text).substr(0, plus), out.limit_s) ||
      !parse_int(std::string_view(text).substr(plus + 1), out.increment_s)) {
    why = "a time control as <base seconds>+<increment seconds>, e.g. 180+2";
    return false;
  }
  if (!valid_limit(out.limit_s) || out.increment_s < 0 || out.increment_s > 60) {
    why =
        "a base lichess allows (0, 15, 30, 45, 60, 90 or whole minutes up to 10800 s) and an "
        "increment of 0..60 s";
    return false;
  }
  // Lichess's speed estimate: base + 40 x increment; below 30 s is UltraBullet, which bots
  // may not play.
  if (out.limit_s + 40 * out.increment_s < 30) {
    why = "a time control slower than UltraBullet (base + 40 x increment >= 30 s)";
    return false;
  }
  return true;
}

}  // namespace zh::bot
