#pragma once
// The `book` section: opening moves from a book file (engine/book, `zhbot book build`) and,
// optionally, from lichess's opening explorer. Declared once here with defaults and help; the
// option names carry a `book_` prefix because option names are one namespace across sections.

#include <cstdint>
#include <string>

#include "engine/book/opening_book.h"
#include "engine/options.h"

namespace zh::bot {

struct BookConfig {
  bool enabled;
  std::string file;
  std::int64_t max_ply;
  std::int64_t min_weight;
  book::Selection selection;
  bool explorer;
  std::string explorer_url;
  bool explorer_send_token;
  std::int64_t explorer_timeout_ms;
  std::int64_t explorer_min_games;

  static void declare(Options& options);
  // Throws OptionError naming the key for values the declarations cannot check alone.
  static BookConfig from(const Options& options);
};

}  // namespace zh::bot
