#include "bot/config/bot_config.h"

#include <filesystem>

#include "engine/option_table.h"

namespace zh::bot {

namespace {

const OptionTable<BotConfig> kLichessOptions{
    "lichess",
    {
        {"base_url", &BotConfig::base_url, Text{"https://lichess.org"},
         "lichess server; point it at a local emulator for tests (https required elsewhere, TLS "
         "is always verified)"},
        {"token_file", &BotConfig::token_file, Text{""},
         "file holding the API token (bot:play scope), used when LICHESS_BOT_TOKEN is not set; "
         "keep it readable by you only (chmod 600)"},
        {"request_timeout_ms", &BotConfig::request_timeout_ms, Int{10000, 500, 120000},
         "limit for one ordinary API request"},
        {"stream_idle_timeout_s", &BotConfig::stream_idle_timeout_s, Int{20, 5, 300},
         "a stream with no byte (not even a keep-alive) for this long is reopened"},
    }};

const OptionTable<ChallengePolicyOptions> kChallengeOptions{
    "challenge",
    {
        {"variants", &ChallengePolicyOptions::variants,
         List{"crazyhouse",
              {"standard", "chess960", "crazyhouse", "antichess", "atomic", "horde",
               "kingOfTheHill", "racingKings", "threeCheck", "fromPosition"}},
         "accepted variants, comma-separated lichess keys: crazyhouse is the only one zhbot "
         "plays, so check-config refuses any other (challenges in other variants are declined "
         "with 'variant')"},
        {"speeds", &ChallengePolicyOptions::speeds,
         List{"bullet,blitz,rapid,classical",
              {"ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"}},
         "accepted speeds: ultraBullet bullet blitz rapid classical (correspondence and "
         "unlimited challenges are always declined with 'tooSlow': zhbot plays real-time games "
         "only, see docs/operators.md)"},
        {"min_base_s", &ChallengePolicyOptions::min_base_s, Int{0, 0, 10800},
         "shortest accepted initial clock, seconds"},
        {"max_base_s", &ChallengePolicyOptions::max_base_s, Int{10800, 0, 10800},
         "longest accepted initial clock, seconds"},
        {"min_increment_s", &ChallengePolicyOptions::min_increment_s, Int{0, 0, 180},
         "smallest accepted increment, seconds"},
        {"max_increment_s", &ChallengePolicyOptions::max_increment_s, Int{180, 0, 180},
         "largest accepted increment, seconds"},
        {"accept_rated", &ChallengePolicyOptions::accept_rated, Bool{true},
         "accept rated challenges"},
        {"accept_casual", &ChallengePolicyOptions::accept_casual, Bool{true},
         "accept casual challenges"},
        {"accept_bots", &ChallengePolicyOptions::accept_bots, Bool{true},
         "accept challenges from other bots"},
        {"only_bots", &ChallengePolicyOptions::only_bots, Bool{false},
         "accept challenges from bots only"},
        {"min_rating", &ChallengePolicyOptions::min_rating, Int{0, 0, 4000},
         "lowest challenger rating accepted"},
        {"max_rating", &ChallengePolicyOptions::max_rating, Int{4000, 0, 4000},
         "highest challenger rating accepted"},
        {"block_list", &ChallengePolicyOptions::block_list, List{"", {}},
         "user names never accepted, comma-separated"},
        {"allow_list", &ChallengePolicyOptions::allow_list, List{"", {}},
         "when set, only these users are accepted, comma-separated"},
        {"rating_difference", &ChallengePolicyOptions::rating_difference, Int{0, 0, 4000},
         "decline (generic) a challenger rated further than this from our own crazyhouse "
         "rating; 0: off"},
        {"bot_bullet_requires_increment", &ChallengePolicyOptions::bot_bullet_requires_increment,
         Bool{false}, "decline (timeControl) bullet without increment from bots"},
        {"max_recent_bot_challenges", &ChallengePolicyOptions::max_recent_bot_challenges,
         Int{0, 0, 1000},
         "decline (later) a bot's challenge when it sent more than this many within "
         "recent_bot_challenge_window_s; 0: off"},
        {"recent_bot_challenge_window_s", &ChallengePolicyOptions::recent_bot_challenge_window_s,
         Int{600, 1, 86400}, "the window of max_recent_bot_challenges, seconds"},
        {"max_concurrent_games", &ChallengePolicyOptions::max_concurrent_games, Int{2, 1, 64},
         "games at once; acceptable challenges beyond wait in the queue"},
        {"queue_size", &ChallengePolicyOptions::queue_size, Int{5, 0, 100},
         "acceptable challenges that wait for a free slot; when full, or 0, a busy bot declines "
         "with 'later'"},
        {"queue_order", &ChallengePolicyOptions::queue_order,
         Enum<QueueOrder>{"first",
                          {{"first", QueueOrder::kFirst},
                           {"rating", QueueOrder::kRating},
                           {"humans_first", QueueOrder::kHumansFirst}}},
         "which waiting challenge gets a free slot: first come, highest rating, humans first"},
        {"games_reserved_for_humans", &ChallengePolicyOptions::games_reserved_for_humans,
         Int{0, 0, 63}, "slots of max_concurrent_games that bots may not take"},
        {"max_games_per_opponent", &ChallengePolicyOptions::max_games_per_opponent, Int{1, 1, 64},
         "simultaneous games against one opponent"},
        {"max_bot_games_per_day", &ChallengePolicyOptions::max_bot_games_per_day, Int{100, 0, 100},
         "bot-vs-bot games started per 24 h (lichess allows 100)"},
    }};

const OptionTable<MatchmakingOptions> kMatchmakingOptions{
    "matchmaking",
    {
        {"seek_games", &MatchmakingOptions::enabled, Bool{false},
         "when idle, challenge an online bot that plays crazyhouse"},
        {"seek_after_idle_s", &MatchmakingOptions::idle_s, Int{300, 1, 86400},
         "seek only after this long without any game, challenge or queued challenge"},
        {"seek_during_games", &MatchmakingOptions::during_games, Bool{false},
         "also seek while games run when a slot is free for a bot game (max_concurrent_games "
         "less games_reserved_for_humans); never beyond the daily bot-game limit or while "
         "draining"},
        {"seek_time_controls", &MatchmakingOptions::time_controls, List{"180+2,300+3", {}},
         "time controls to offer, <base s>+<increment s>, one picked at random"},
        {"seek_mode", &MatchmakingOptions::mode,
         Enum<SeekMode>{"casual",
                        {{"casual", SeekMode::kCasual},
                         {"rated", SeekMode::kRated},
                         {"random", SeekMode::kRandom}}},
         "casual or rated challenges, or random: a coin toss for each (lichess advises casual "
         "while a bot is being tested)"},
        {"seek_rating_difference", &MatchmakingOptions::rating_difference, Int{300, 0, 4000},
         "challenge bots whose crazyhouse rating is within this of ours"},
        {"seek_min_rating", &MatchmakingOptions::min_rating, Int{0, 0, 4000},
         "challenge only bots whose crazyhouse rating is at least this (with "
         "seek_rating_difference)"},
        {"seek_max_rating", &MatchmakingOptions::max_rating, Int{4000, 0, 4000},
         "challenge only bots whose crazyhouse rating is at most this"},
        {"seek_rating_preference", &MatchmakingOptions::preference,
         Enum<RatingPreference>{"none",
                                {{"none", RatingPreference::kNone},
                                 {"higher", RatingPreference::kHigher},
                                 {"lower", RatingPreference::kLower}}},
         "among the bots that fit: none: any; higher (lower): only those rated above (below) "
         "us while there are any"},
        {"seek_interval_s", &MatchmakingOptions::interval_s, Int{60, 5, 86400},
         "at least this long between two of our challenges"},
        {"seek_timeout_s", &MatchmakingOptions::timeout_s, Int{30, 5, 600},
         "cancel our challenge when it is not answered within this long"},
        {"seek_block_list", &MatchmakingOptions::block_list, List{"", {}},
         "bots never challenged, comma-separated (challenge.block_list is never challenged "
         "either)"},
        {"seek_decliners_forever", &MatchmakingOptions::decliners_forever, Bool{false},
         "a bot that declines for a lasting reason (not 'later') is never challenged again: it "
         "is listed in decliners.txt in the state directory (delete its line, or the file, to "
         "ask it again); off: it is left alone for a day"},
    }};

const OptionTable<BotConfig> kGameOptions{
    "game",
    {
        {"abort_time_s", &BotConfig::abort_time_s, Int{20, 5, 600},
         "abort when the opponent has not made a first move in this time"},
        {"human_min_think_ms", &BotConfig::human_min_think_ms, Int{1000, 0, 60000},
         "against humans, never answer faster than this"},
        {"human_opening_temperature", &BotConfig::human_opening_temperature, Bool{false},
         "against humans, sample the first moves with the search temperature (variety)"},
        {"ponder", &BotConfig::ponder,
         Enum<PonderMode>{"on",
                          {{"off", PonderMode::kOff},
                           {"on", PonderMode::kOn},
                           {"humans", PonderMode::kHumans},
                           {"bots", PonderMode::kBots}}},
         "think on the opponent's time: never, always, only against humans or bots"},
        {"ponder_single_game_only", &BotConfig::ponder_single_game_only, Bool{true},
         "suspend pondering while more than one game is running"},
        {"accept_draws", &BotConfig::accept_draws, Bool{false},
         "accept draw offers when the evaluation is level"},
        {"draw_value_threshold", &BotConfig::draw_value_threshold, Float{0.05, 0, 1},
         "accept a draw when |value| (in [-1, 1]) is at most this"},
        {"draw_min_moves", &BotConfig::draw_min_moves, Int{30, 0, 1000},
         "accept draws only from this full move on"},
        {"offer_draws", &BotConfig::offer_draws, Bool{false},
         "offer a draw with our move when the evaluation has stayed level"},
        {"offer_draw_value", &BotConfig::offer_draw_value, Float{0.05, 0, 1},
         "level for an offer: |value| (in [-1, 1]) at most this"},
        {"offer_draw_moves", &BotConfig::offer_draw_moves, Int{10, 1, 200},
         "... for this many of our moves in a row; after an offer, as many more before the next"},
        {"offer_draw_min_moves", &BotConfig::offer_draw_min_moves, Int{40, 0, 1000},
         "offer draws only from this full move on"},
        {"offer_draws_to_humans", &BotConfig::offer_draws_to_humans, Bool{false},
         "offer draws to human opponents too (by default only to bots)"},
        {"takebacks_accepted", &BotConfig::takebacks_accepted, Int{0, 0, 100},
         "takebacks granted per game"},
        {"resign", &BotConfig::resign, Bool{false}, "resign lost positions"},
        {"resign_value", &BotConfig::resign_value, Float{-0.97, -1, 0},
         "resign when the value stays at or below this"},
        {"resign_moves", &BotConfig::resign_moves, Int{3, 1, 100},
         "... for this many of our moves in a row"},
        {"claim_victory", &BotConfig::claim_victory, Bool{true},
         "claim the win when the opponent left the game"},
        {"pgn_dir", &BotConfig::pgn_dir, Text{"pgn"},
         "directory for one PGN file per finished game; empty: none"},
    }};

const OptionTable<ChatTemplates> kChatTemplateOptions{
    "chat",
    {
        {"greeting", &ChatTemplates::greeting,
         Text{"Hi {opponent}, I am {me}: crazyhouse MCTS + neural network. Good luck!"},
         "said in the player room at the start; {me} {opponent}; empty: silent"},
        {"goodbye", &ChatTemplates::goodbye, Text{"Thanks for the game, {opponent}!"},
         "said in the player room at the end"},
        {"greeting_spectators", &ChatTemplates::greeting_spectators,
         Text{"{me} vs {opponent}. Commands: !help !name !queue !eval"},
         "said in the spectator room at the start"},
        {"goodbye_spectators", &ChatTemplates::goodbye_spectators, Text{"Thanks for watching!"},
         "said in the spectator room at the end"},
    }};

const OptionTable<BotConfig> kChatOptions{
    "chat",
    {
        {"chat_commands", &BotConfig::chat_commands, Bool{true},
         "answer !help, !name, !queue (challenges waiting, and the asker's place), !wait (the "
         "opponent's first move: a minute more before the abort) and !eval (spectator room)"},
        {"chat_min_interval_ms", &BotConfig::chat_min_interval_ms, Int{3000, 0, 600000},
         "at most one message per room in this interval"},
    }};

const OptionTable<BotConfig> kOperationsOptions{
    "operations",
    {
        {"metrics_port", &BotConfig::metrics_port, Int{0, 0, 65535},
         "serve /healthz, /metrics, the /status page and /status.json on 127.0.0.1 at this port; "
         "0: off"},
        {"shutdown_grace_s", &BotConfig::shutdown_grace_s, Int{600, 0, 86400},
         "on SIGTERM/SIGINT, let running games finish for up to this long"},
        {"state_dir", &BotConfig::state_dir, Text{""},
         "directory for the state that survives restarts (the bot-game count of the last 24 h, "
         "the bots that declined our challenges and how long each is left alone); "
         "empty: systemd's StateDirectory, else ./state"},
        {"log_level", &BotConfig::log_level,
         Choice{"info", {"trace", "debug", "info", "warn", "error"}}, "log detail"},
        {"log_format", &BotConfig::log_format, Choice{"text", {"text", "json"}},
         "log lines as text or JSON objects"},
        {"log_file", &BotConfig::log_file, Text{""},
         "also write the log to this file (for a terminal or a container without journald), "
         "rotated by size; empty: standard error only"},
        {"log_file_max_mb", &BotConfig::log_file_max_mb, Int{10, 1, 10000},
         "rotate log_file when it reaches this many MiB"},
        {"log_file_count", &BotConfig::log_file_count, Int{5, 1, 100},
         "rotated log files kept besides log_file (for zhbot.log: zhbot.1.log, the newest, "
         "zhbot.2.log, ...)"},
    }};

OptionError not_allowed(const std::string& name, const std::string& value,
                        const std::string& expected) {
  return OptionError("option '" + name + "': value '" + value + "' is not allowed; expected " +
                     expected);
}

// Rules that tie two options together, which the single declarations cannot check.
void check(const BotConfig& c) {
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
    throw not_allowed("base_url", c.base_url,
                      "an https:// URL (plain http:// only for a local test server on "
                      "127.0.0.1, localhost or [::1])");
  if (!c.log_file.empty()) {
    const std::filesystem::path dir = std::filesystem::path(c.log_file).parent_path();
    if (!dir.empty() && !std::filesystem::is_directory(dir))
      throw not_allowed("log_file", c.log_file, "a file in an existing directory");
  }
  const ChallengePolicyOptions& p = c.challenge;
  if (p.variants.empty()) throw not_allowed("variants", "", "at least one variant");
  // Another variant would be accepted and then never played, holding a slot until aborted.
  for (const auto& variant : p.variants)
    if (variant != kPlayedVariant)
      throw not_allowed("variants", variant,
                        std::string(kPlayedVariant) +
                            " only: zhbot's engine plays crazyhouse alone and declines every other "
                            "variant with 'variant'");
  if (p.min_base_s > p.max_base_s)
    throw not_allowed("min_base_s", std::to_string(p.min_base_s),
                      "at most max_base_s (" + std::to_string(p.max_base_s) + ")");
  if (p.min_increment_s > p.max_increment_s)
    throw not_allowed("min_increment_s", std::to_string(p.min_increment_s),
                      "at most max_increment_s (" + std::to_string(p.max_increment_s) + ")");
  if (p.min_rating > p.max_rating)
    throw not_allowed("min_rating", std::to_string(p.min_rating),
                      "at most max_rating (" + std::to_string(p.max_rating) + ")");
  for (const auto& speed : p.speeds)
    if (speed == "correspondence")
      throw not_allowed("speeds", "correspondence",
                        "real-time speeds only: zhbot declines correspondence and unlimited "
                        "challenges with 'tooSlow' (see docs/operators.md)");
  if (p.accept_bots && p.games_reserved_for_humans >= p.max_concurrent_games)
    throw not_allowed("games_reserved_for_humans", std::to_string(p.games_reserved_for_humans),
                      "less than max_concurrent_games (" + std::to_string(p.max_concurrent_games) +
                          ") while accept_bots is true, or bots could never play");
  const MatchmakingOptions& m = c.matchmaking;
  if (m.min_rating > m.max_rating)
    throw not_allowed("seek_min_rating", std::to_string(m.min_rating),
                      "at most seek_max_rating (" + std::to_string(m.max_rating) + ")");
  if (m.enabled && m.time_controls.empty())
    throw not_allowed("seek_time_controls", "", "at least one time control when seek_games is on");
  if (m.enabled && !p.accept_bots)
    throw OptionError(
        "option 'seek_games': value 'true' is not allowed while accept_bots is false (our own "
        "challenges are games against bots); expected false");
  if (!p.accept_bots && p.only_bots)
    throw OptionError(
        "option 'only_bots': value 'true' is not allowed while accept_bots is false; expected "
        "false");
}

}  // namespace

void BotConfig::declare(Options& o) {
  kLichessOptions.declare(o);
  kChallengeOptions.declare(o);
  kMatchmakingOptions.declare(o);
  kGameOptions.declare(o);
  kChatTemplateOptions.declare(o);
  kChatOptions.declare(o);
  kOperationsOptions.declare(o);
  BookConfig::declare(o);
}

BotConfig BotConfig::from(const Options& o) {
  BotConfig c{};
  kLichessOptions.read(o, c);
  kChallengeOptions.read(o, c.challenge);
  kMatchmakingOptions.read(o, c.matchmaking);
  for (const auto& text : c.matchmaking.time_controls) {
    SeekClock clock;
    std::string why;
    if (!parse_seek_clock(text, clock, why)) throw not_allowed("seek_time_controls", text, why);
    c.matchmaking.clocks.push_back(clock);
  }
  kGameOptions.read(o, c);
  kChatTemplateOptions.read(o, c.chat);
  kChatOptions.read(o, c);
  kOperationsOptions.read(o, c);
  c.book = BookConfig::from(o);
  check(c);
  return c;
}

BotConfig BotConfig::defaults() {
  Options o;
  declare(o);
  return from(o);
}

}  // namespace zh::bot
