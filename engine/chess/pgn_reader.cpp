#include "engine/chess/pgn_reader.h"

#include <cctype>

#include "engine/util/strings.h"

namespace zh {

namespace {

bool is_result(const std::string& token) {
  return token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*";
}

// "12." "12..." "..." : a move number, not a move.
bool is_move_number(const std::string& token) {
  std::size_t i = 0;
  while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i]))) ++i;
  if (i == token.size()) return i > 0;
  for (std::size_t j = i; j < token.size(); ++j)
    if (token[j] != '.') return false;
  return true;
}

// [Name "value"] -> name, value (backslash escapes as PGN defines them).
bool parse_tag(const std::string& line, std::string& name, std::string& value) {
  const std::string t = trim(line);
  if (t.size() < 2 || t.front() != '[' || t.back() != ']') return false;
  std::size_t i = 1;
  while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
  const std::size_t name_start = i;
  while (i < t.size() && !std::isspace(static_cast<unsigned char>(t[i])) && t[i] != '"') ++i;
  name = t.substr(name_start, i - name_start);
  const std::size_t q = t.find('"', i);
  if (name.empty() || q == std::string::npos) return false;
  value.clear();
  for (std::size_t j = q + 1; j + 1 < t.size(); ++j) {
    if (t[j] == '\\' && j + 2 < t.size()) {
      value += t[++j];
    } else if (t[j] == '"') {
      return true;
    } else {
      value += t[j];
    }
  }
  return true;
}

}  // namespace

bool PgnReader::read_line(std::string& line) {
  if (pending_) {
    line = std::move(*pending_);
    pending_.reset();
    return true;
  }
  if (!std::getline(in_, line)) return false;
  ++line_no_;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

std::optional<PgnGameText> PgnReader::next() {
  PgnGameText game;
  bool started = false;   // a tag or a move seen
  bool in_moves = false;  // past the tags
  int brace = 0;          // inside {comment}
  int paren = 0;          // inside (variation)
  std::string line;
  while (read_line(line)) {
    const std::string t = trim(line);
    if (brace == 0 && paren == 0 && !t.empty() && t.front() == '[') {
      if (in_moves) {  // the next game's tags: this game ended without a result token
        pending_ = line;
        return game;
      }
      std::string name, value;
      if (parse_tag(t, name, value)) {
        if (!started) game.line = line_no_;
        started = true;
        game.tags[name] = value;
      }
      continue;
    }
    if (brace == 0 && paren == 0 && !t.empty() && t.front() == '%') continue;  // escape line
    std::string token;
    auto flush = [&]() -> bool {  // true when the token ended the game
      if (token.empty()) return false;
      std::string tok;
      tok.swap(token);
      if (is_result(tok)) {
        game.result = tok;
        return true;
      }
      if (tok.front() == '$' || is_move_number(tok)) return false;
      // "12.e4" (no space after the number): keep what follows the dots.
      std::size_t i = 0;
      while (i < tok.size() && std::isdigit(static_cast<unsigned char>(tok[i]))) ++i;
      if (i > 0 && i < tok.size() && tok[i] == '.') {
        while (i < tok.size() && tok[i] == '.') ++i;
        tok = tok.substr(i);
      }
      if (!tok.empty()) {
        if (!started) game.line = line_no_;
        started = true;
        in_moves = true;
        game.moves.push_back(tok);
      }
      return false;
    };
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (brace > 0) {
        if (c == '}') --brace;
        continue;
      }
      if (c == '{') {
        if (flush()) return game;
        ++brace;
        continue;
      }
      if (c == ';') break;  // comment to the end of the line
      if (c == '(') {
        if (flush()) return game;
        ++paren;
        continue;
      }
      if (c == ')') {
        token.clear();
        if (paren > 0) --paren;
        continue;
      }
      if (paren > 0) continue;
      if (std::isspace(static_cast<unsigned char>(c))) {
        if (flush()) return game;
        continue;
      }
      token += c;
    }
    if (brace == 0 && flush()) return game;
  }
  if (!started) return std::nullopt;
  return game;
}

}  // namespace zh
