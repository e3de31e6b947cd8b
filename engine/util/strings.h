#pragma once
// The few text helpers every layer needs (option names, UCI tokens, chat commands, user ids),
// in one place so they behave the same everywhere.

#include <string>
#include <string_view>
#include <vector>

namespace zh {

// ASCII lower case (ids and option names are ASCII; other bytes pass through).
std::string lower(std::string_view s);
// Without leading and trailing spaces, tabs, CR and LF.
std::string trim(std::string_view s);
// Whitespace-separated tokens ("go wtime 100" -> {"go", "wtime", "100"}).
std::vector<std::string> split_words(std::string_view s);
// A comma-separated list ("bullet, blitz,,") -> trimmed, non-empty items {"bullet", "blitz"}.
std::vector<std::string> split_list(std::string_view s);

}  // namespace zh
