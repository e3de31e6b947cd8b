#include "bot/status/pgn_history.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>
#include <system_error>

#include "engine/util/strings.h"

namespace zh::bot {

namespace {

using Tags = std::map<std::string, std::string>;

Tags read_tags(const std::filesystem::path& file) {
  Tags tags;
  std::ifstream in(file);
  // A tag line is [Name "value"]; std::regex is avoided (GCC 12 warns inside it at -O1).
  for (std::string line; std::getline(in, line) && !line.empty();) {
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    if (line.size() < 5 || line.front() != '[' || line.back() != ']') continue;
    const std::size_t space = line.find(' ');
    if (space == std::string::npos || space < 2 || line[space + 1] != '"') continue;
    if (line[line.size() - 2] != '"' || line.size() < space + 4) continue;
    const std::string name = line.substr(1, space - 1);
    bool word = true;
    for (char c : name) word = word && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (!word) continue;
    tags[name] = line.substr(space + 2, line.size() - space - 4);
  }
  return tags;
}

std::optional<int> number(const Tags& tags, const std::string& key) {
  const auto it = tags.find(key);
  if (it == tags.end() || it->second.empty()) return std::nullopt;
  try {
    return std::stoi(it->second);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// "2026.12.02" and "01:02:03" (UTC) as Unix milliseconds; 0 when unreadable.
std::int64_t utc_ms(const std::string& date, const std::string& time) {
  std::tm tm{};
  if (std::sscanf(date.c_str(), "%d.%d.%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday) != 3 ||
      std::sscanf(time.c_str(), "%d:%d:%d", &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 3)
    return 0;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return std::int64_t(timegm(&tm)) * 1000;
}

std::optional<FinishedGame> finished_game(const Tags& tags, const std::string& account,
                                          std::int64_t started_ms) {
  const auto get = [&](const char* key) {
    const auto it = tags.find(key);
    return it == tags.end() ? std::string() : it->second;
  };
  const bool white = lower(get("White")) == lower(account);
  if (!white && lower(get("Black")) != lower(account)) return std::nullopt;
  const std::string result = get("Result");
  FinishedGame f;
  if (result == "1/2-1/2")
    f.result = "draw";
  else if (result == "1-0" || result == "0-1")
    f.result = (result == "1-0") == white ? "win" : "loss";
  else
    return std::nullopt;  // unfinished
  f.url = get("Site");
  f.id = f.url.substr(f.url.rfind('/') + 1);
  f.color = white ? "white" : "black";
  const char* them = white ? "Black" : "White";
  f.opponent = {get(them), get(white ? "BlackTitle" : "WhiteTitle"),
                number(tags, std::string(them) + "Elo")};
  f.our_rating = number(tags, white ? "WhiteElo" : "BlackElo");
  f.rated = get("Event").rfind("Rated", 0) == 0;
  f.ended_unix_ms = started_ms;  // the PGN says when the game started
  return f;
}

}  // namespace

PgnHistory read_pgn_history(const std::filesystem::path& dir, const std::string& account,
                            std::size_t max_games) {
  // The newest files first (a bot that ran for months has thousands: only these are read).
  std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".pgn" && entry.is_regular_file(ec))
      files.emplace_back(entry.last_write_time(ec), entry.path());
  const std::size_t newest = std::min(files.size(), max_games);
  std::partial_sort(files.begin(), files.begin() + std::ptrdiff_t(newest), files.end(),
                    [](const auto& a, const auto& b) { return a.first > b.first; });
  files.resize(newest);
  struct Found {
    std::int64_t started_ms;
    FinishedGame game;
  };
  std::vector<Found> found;
  for (const auto& [when, path] : files) {
    const Tags tags = read_tags(path);
    const auto date = tags.find("UTCDate"), time = tags.find("UTCTime");
    if (date == tags.end() || time == tags.end()) continue;
    const std::int64_t started = utc_ms(date->second, time->second);
    if (auto game = finished_game(tags, account, started)) found.push_back({started, *game});
  }
  std::sort(found.begin(), found.end(),
            [](const Found& a, const Found& b) { return a.started_ms > b.started_ms; });
  PgnHistory history;
  for (const auto& f : found) history.finished.push_back(f.game);
  for (auto it = found.rbegin(); it != found.rend(); ++it)
    if (it->game.rated && it->game.our_rating)
      history.ratings.push_back({it->started_ms, *it->game.our_rating});
  return history;
}

}  // namespace zh::bot
