#include "bot/config/bot_config.h"

#include <algorithm>
#include <sstream>

namespace zh::bot {

namespace {

constexpr const char* kVariants[] = {"standard",   "chess960",    "crazyhouse",    "antichess",
                                     "atomic",     "horde",       "kingOfTheHill", "racingKings",
                                     "threeCheck", "fromPosition"};
constexpr const char* kSpeeds[] = {"ultraBullet", "bullet",    "blitz",
                                   "rapid",       "classical", "correspondence"};

template <std::size_t N>
std::vector<std::string> checked_list(const Options& o, const char* name,
                                      const char* const (&allowed)[N]) {
  std::vector<std::string> items = split_list(o.get_string(name));
  for (const auto& item : items) {
    if (std::find(std::begin(allowed), std::end(allowed), item) == std::end(allowed)) {
      std::string list;
      for (std::size_t i = 0; i < N; ++i) list += (i ? ", " : "") + std::string(allowed[i]);
      throw OptionError("option '" + std::string(name) + "': value '" + item +
                        "' is not allowed; expected a comma-separated list of " + list);
    }
  }
  return items;
}

}  // namespace

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    const auto first = item.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    const auto last = item.find_last_not_of(" \t");
    out.push_back(item.substr(first, last - first + 1));
  }
  return out;
}

void BotConfig::declare(Options& o) {
  const char* g = "lichess";
  o.add_string("base_url", "https://lichess.org", g,
               "lichess server; point it at a local emulator for tests (https required "
               "elsewhere, TLS is always verified)");
  o.add_string("token_file", "", g,
               "file holding the API token (bot:play scope), used when LICHESS_BOT_TOKEN is not "
               "set; keep it readable by you only (chmod 600)");
  o.add_int("request_timeout_ms", 10000, 500, 120000, g, "limit for one ordinary API request");
  o.add_int("stream_idle_timeout_s", 20, 5, 300, g,
            "a stream with no byte (not even a keep-alive) for this long is reopened");

  g = "challenge";
  o.add_string("variants", "crazyhouse", g, "accepted variants, comma-separated lichess keys");
  o.add_string("speeds", "bullet,blitz,rapid,classical", g,
               "accepted speeds: ultraBullet bullet blitz rapid classical correspondence");
  o.add_int("min_base_s", 0, 0, 10800, g, "shortest accepted initial clock, seconds");
  o.add_int("max_base_s", 10800, 0, 10800, g, "longest accepted initial clock, seconds");
  o.add_int("min_increment_s", 0, 0, 180, g, "smallest accepted increment, seconds");
  o.add_int("max_increment_s", 180, 0, 180, g, "largest accepted increment, seconds");
  o.add_bool("accept_rated", true, g, "accept rated challenges");
  o.add_bool("accept_casual", true, g, "accept casual challenges");
  o.add_bool("accept_bots", true, g, "accept challenges from other bots");
  o.add_bool("only_bots", false, g, "accept challenges from bots only");
  o.add_int("min_rating", 0, 0, 4000, g, "lowest challenger rating accepted");
  o.add_int("max_rating", 4000, 0, 4000, g, "highest challenger rating accepted");
  o.add_string("block_list", "", g, "user names never accepted, comma-separated");
  o.add_string("allow_list", "", g, "when set, only these users are accepted, comma-separated");
  o.add_int("max_concurrent_games", 2, 1, 64, g,
            "games at once; more challenges are declined with 'later'");
  o.add_int("max_games_per_opponent", 1, 1, 64, g, "simultaneous games against one opponent");
  o.add_int("max_bot_games_per_day", 100, 0, 100, g,
            "bot-vs-bot games started per 24 h (lichess allows 100)");

  g = "game";
  o.add_int("abort_time_s", 20, 5, 600, g,
            "abort when the opponent has not made a first move in this time");
  o.add_int("human_min_think_ms", 1000, 0, 60000, g,
            "against humans, never answer faster than this");
  o.add_bool("human_opening_temperature", false, g,
             "against humans, sample the first moves with the search temperature (variety)");
  o.add_combo("ponder", "on", {"off", "on", "humans", "bots"}, g,
              "think on the opponent's time: never, always, only against humans or bots");
  o.add_bool("ponder_single_game_only", true, g,
             "suspend pondering while more than one game is running");
  o.add_bool("accept_draws", false, g, "accept draw offers when the evaluation is level");
  o.add_float("draw_value_threshold", 0.05, 0, 1, g,
              "accept a draw when |value| (in [-1, 1]) is at most this");
  o.add_int("draw_min_moves", 30, 0, 1000, g, "accept draws only from this full move on");
  o.add_int("takebacks_accepted", 0, 0, 100, g, "takebacks granted per game");
  o.add_bool("resign", false, g, "resign lost positions");
  o.add_float("resign_value", -0.97, -1, 0, g, "resign when the value stays at or below this");
  o.add_int("resign_moves", 3, 1, 100, g, "... for this many of our moves in a row");
  o.add_bool("claim_victory", true, g, "claim the win when the opponent left the game");
  o.add_string("pgn_dir", "pgn", g, "directory for one PGN file per finished game; empty: none");

  g = "chat";
  o.add_string("greeting", "Hi {opponent}, I am {me}: crazyhouse MCTS + neural network. Good luck!",
               g, "said in the player room at the start; {me} {opponent}; empty: silent");
  o.add_string("goodbye", "Thanks for the game, {opponent}!", g,
               "said in the player room at the end");
  o.add_string("greeting_spectators", "{me} vs {opponent}. Commands: !help !name !eval", g,
               "said in the spectator room at the start");
  o.add_string("goodbye_spectators", "Thanks for watching!", g,
               "said in the spectator room at the end");
  o.add_bool("chat_commands", true, g, "answer !help, !name and !eval (spectator room)");
  o.add_int("chat_min_interval_ms", 3000, 0, 600000, g,
            "at most one message per room in this interval");

  g = "operations";
  o.add_int("metrics_port", 0, 0, 65535, g,
            "serve /healthz and /metrics on 127.0.0.1 at this port; 0: off");
  o.add_int("shutdown_grace_s", 600, 0, 86400, g,
            "on SIGTERM/SIGINT, let running games finish for up to this long");
  o.add_combo("log_level", "info", {"trace", "debug", "info", "warn", "error"}, g, "log detail");
  o.add_combo("log_format", "text", {"text", "json"}, g, "log lines as text or JSON objects");
}

BotConfig BotConfig::from(const Options& o) {
  BotConfig c;
  c.base_url = o.get_string("base_url");
  // The token travels in a header: plain http only where it cannot leave the machine.
  const bool https = c.base_url.rfind("https://", 0) == 0;
  bool loopback_http = false;
  for (const char* host : {"http://127.0.0.1", "http://localhost", "http://[::1]"}) {
    const std::string prefix = host;
    if (c.base_url.rfind(prefix, 0) == 0 &&
        (c.base_url.size() == prefix.size() || c.base_url[prefix.size()] == ':' ||
         c.base_url[prefix.size()] == '/'))
      loopback_http = true;
  }
  if (!https && !loopback_http)
    throw OptionError("option 'base_url': value '" + c.base_url +
                      "' is not allowed; expected an https:// URL (plain http:// only for a "
                      "local test server on 127.0.0.1, localhost or [::1])");
  c.token_file = o.get_string("token_file");
  c.request_timeout_ms = o.get_int("request_timeout_ms");
  c.stream_idle_timeout_s = o.get_int("stream_idle_timeout_s");

  auto& p = c.challenge;
  p.variants = checked_list(o, "variants", kVariants);
  p.speeds = checked_list(o, "speeds", kSpeeds);
  p.min_base_s = int(o.get_int("min_base_s"));
  p.max_base_s = int(o.get_int("max_base_s"));
  p.min_increment_s = int(o.get_int("min_increment_s"));
  p.max_increment_s = int(o.get_int("max_increment_s"));
  p.accept_rated = o.get_bool("accept_rated");
  p.accept_casual = o.get_bool("accept_casual");
  p.accept_bots = o.get_bool("accept_bots");
  p.only_bots = o.get_bool("only_bots");
  p.min_rating = int(o.get_int("min_rating"));
  p.max_rating = int(o.get_int("max_rating"));
  p.block_list = split_list(o.get_string("block_list"));
  p.allow_list = split_list(o.get_string("allow_list"));
  p.max_concurrent_games = int(o.get_int("max_concurrent_games"));
  p.max_games_per_opponent = int(o.get_int("max_games_per_opponent"));
  p.max_bot_games_per_day = int(o.get_int("max_bot_games_per_day"));
  if (p.variants.empty())
    throw OptionError("option 'variants': value '' is not allowed; expected at least one variant");
  if (p.min_base_s > p.max_base_s)
    throw OptionError("option 'min_base_s': value '" + std::to_string(p.min_base_s) +
                      "' is not allowed; expected at most max_base_s (" +
                      std::to_string(p.max_base_s) + ")");
  if (p.min_increment_s > p.max_increment_s)
    throw OptionError("option 'min_increment_s': value '" + std::to_string(p.min_increment_s) +
                      "' is not allowed; expected at most max_increment_s (" +
                      std::to_string(p.max_increment_s) + ")");
  if (p.min_rating > p.max_rating)
    throw OptionError("option 'min_rating': value '" + std::to_string(p.min_rating) +
                      "' is not allowed; expected at most max_rating (" +
                      std::to_string(p.max_rating) + ")");
  if (p.accept_bots == false && p.only_bots)
    throw OptionError(
        "option 'only_bots': value 'true' is not allowed while accept_bots is "
        "false; expected false");

  c.abort_time_s = o.get_int("abort_time_s");
  c.human_min_think_ms = o.get_int("human_min_think_ms");
  c.human_opening_temperature = o.get_bool("human_opening_temperature");
  const std::string& ponder = o.get_string("ponder");
  c.ponder = ponder == "off"      ? PonderMode::kOff
             : ponder == "humans" ? PonderMode::kHumans
             : ponder == "bots"   ? PonderMode::kBots
                                  : PonderMode::kOn;
  c.ponder_single_game_only = o.get_bool("ponder_single_game_only");
  c.accept_draws = o.get_bool("accept_draws");
  c.draw_value_threshold = o.get_float("draw_value_threshold");
  c.draw_min_moves = o.get_int("draw_min_moves");
  c.takebacks_accepted = o.get_int("takebacks_accepted");
  c.resign = o.get_bool("resign");
  c.resign_value = o.get_float("resign_value");
  c.resign_moves = o.get_int("resign_moves");
  c.claim_victory = o.get_bool("claim_victory");
  c.pgn_dir = o.get_string("pgn_dir");

  c.chat = {o.get_string("greeting"), o.get_string("goodbye"), o.get_string("greeting_spectators"),
            o.get_string("goodbye_spectators")};
  c.chat_commands = o.get_bool("chat_commands");
  c.chat_min_interval_ms = o.get_int("chat_min_interval_ms");

  c.metrics_port = o.get_int("metrics_port");
  c.shutdown_grace_s = o.get_int("shutdown_grace_s");
  c.log_level = o.get_string("log_level");
  c.log_format = o.get_string("log_format");
  return c;
}

}  // namespace zh::bot
