#include "engine/util/strings.h"

#include <cctype>
#include <sstream>

namespace zh {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(first, last - first + 1));
}

std::vector<std::string> split_words(std::string_view s) {
  std::istringstream in{std::string(s)};
  std::vector<std::string> out;
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

std::vector<std::string> split_list(std::string_view s) {
  std::vector<std::string> out;
  while (!s.empty()) {
    const auto comma = s.find(',');
    std::string item = trim(s.substr(0, comma));
    if (!item.empty()) out.push_back(std::move(item));
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace zh
