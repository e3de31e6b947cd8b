#include "bot/config/book_config.h"

#include "engine/option_table.h"

namespace zh::bot {

namespace {

const OptionTable<BookConfig> kBookOptions{
    "book",
    {
        {"book_enabled", &BookConfig::enabled, Bool{false},
         "play opening moves from book_file (and the explorer when book_explorer is on) "
         "instantly; no book ships with zhbot: build one with `zhbot book build` "
         "(docs/opening-book.md)"},
        {"book_file", &BookConfig::file, Text{""},
         "opening book file (zhbot-book format); a malformed file stops the start with its line"},
        {"book_max_ply", &BookConfig::max_ply, Int{16, 0, 200},
         "use the book only while fewer half-moves than this have been played"},
        {"book_min_weight", &BookConfig::min_weight, Int{1, 1, 1000000000},
         "leave out book moves whose weight is below this"},
        {"book_selection", &BookConfig::selection,
         Enum<book::Selection>{
             "weighted",
             {{"weighted", book::Selection::kWeighted}, {"best", book::Selection::kBest}}},
         "weighted: at random in proportion to the weights (variety); best: the heaviest"},
        {"book_explorer", &BookConfig::explorer, Bool{false},
         "with book_enabled: when the book file has no move, ask lichess's opening explorer "
         "(crazyhouse games); a failure or timeout falls back to the search at once"},
        {"book_explorer_url", &BookConfig::explorer_url,
         Text{"https://explorer.lichess.org/lichess"},
         "opening explorer endpoint (the query ?variant=crazyhouse&fen=... is added); lichess's "
         "own (https://explorer.lichess.org) needs an API token and gets the bot's"},
        {"book_explorer_send_token", &BookConfig::explorer_send_token, Bool{false},
         "also send the bot's lichess token to a book_explorer_url that is not "
         "https://explorer.lichess.org (a mirror or proxy you run and trust); off: such a URL "
         "never sees the token"},
        {"book_explorer_timeout_ms", &BookConfig::explorer_timeout_ms, Int{800, 100, 5000},
         "give up on the explorer after this long (and do not ask it again in that game)"},
        {"book_explorer_min_games", &BookConfig::explorer_min_games, Int{20, 1, 1000000},
         "take an explorer move only when it was played in at least this many games"},
    }};

OptionError not_allowed(const std::string& name, const std::string& value,
                        const std::string& expected) {
  return OptionError("option '" + name + "': value '" + value + "' is not allowed; expected " +
                     expected);
}

}  // namespace

void BookConfig::declare(Options& options) { kBookOptions.declare(options); }

BookConfig BookConfig::from(const Options& options) {
  BookConfig c = kBookOptions.read(options);
  if (c.enabled && c.file.empty() && !c.explorer)
    throw not_allowed("book_file", "",
                      "a book file while book_enabled is true (build one with zhbot book build), "
                      "or book_explorer: true");
  if (c.explorer_url.rfind("https://", 0) != 0 && c.explorer_url.rfind("http://", 0) != 0)
    throw not_allowed("book_explorer_url", c.explorer_url, "an http:// or https:// URL");
  // The token in clear text only where it cannot leave the machine.
  if (c.explorer_send_token && c.explorer_url.rfind("https://", 0) != 0 &&
      c.explorer_url.rfind("http://127.0.0.1", 0) != 0 &&
      c.explorer_url.rfind("http://localhost", 0) != 0)
    throw not_allowed("book_explorer_send_token", "true",
                      "false while book_explorer_url is plain http:// off this machine (the "
                      "token would travel in clear text)");
  return c;
}

}  // namespace zh::bot
