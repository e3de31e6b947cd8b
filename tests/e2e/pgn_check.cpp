#include "tests/e2e/pgn_check.h"

#include <cctype>
#include <sstream>
#include <stdexcept>

#include "engine/chess/notation.h"

namespace zh::e2e {
namespace {

bool is_result(const std::string& t) {
  return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*";
}

// "12." or "12..." (also glued to the move, "12.e4").
std::string strip_move_number(const std::string& token) {
  std::size_t i = 0;
  while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i]))) ++i;
  if (i == 0 || i == token.size() || token[i] != '.') return token;
  while (i < token.size() && token[i] == '.') ++i;
  return token.substr(i);
}

}  // namespace

ParsedPgn parse_pgn(const std::string& text) {
  ParsedPgn out;
  std::istringstream in(text);
  std::string movetext;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line[0] == '[') {
      const auto space = line.find(' ');
      const auto q1 = line.find('"');
      const auto q2 = line.rfind('"');
      if (space == std::string::npos || q1 == std::string::npos || q2 <= q1)
        throw std::runtime_error("bad PGN tag line: " + line);
      out.tags[line.substr(1, space - 1)] = line.substr(q1 + 1, q2 - q1 - 1);
    } else {
      movetext += line + "\n";
    }
  }
  // Comments ({ [%eval 0.3] [%clk 0:00:58] }) and variations are not moves.
  std::string plain;
  int brace = 0, paren = 0;
  for (char c : movetext) {
    if (c == '{')
      ++brace;
    else if (c == '}')
      --brace;
    else if (brace == 0 && c == '(')
      ++paren;
    else if (brace == 0 && c == ')')
      --paren;
    else if (brace == 0 && paren == 0)
      plain += c;
    else
      continue;
    if (brace < 0 || paren < 0) throw std::runtime_error("unbalanced PGN comment");
  }
  std::istringstream tokens(plain);
  for (std::string token; tokens >> token;) {
    if (is_result(token)) {
      out.result = token;
      continue;
    }
    if (!out.result.empty()) throw std::runtime_error("moves after the result: " + token);
    if (token[0] == '$') continue;  // numeric annotation glyph
    const std::string san = strip_move_number(token);
    if (san.empty()) continue;
    out.game.play(parse_san(out.game.position(), san));
    out.san.push_back(san);
  }
  if (out.result.empty()) throw std::runtime_error("PGN has no result token");
  return out;
}

Game replay_uci(const std::string& uci) {
  Game g;
  std::istringstream in(uci);
  for (std::string m; in >> m;) g.play_uci(m);
  return g;
}

}  // namespace zh::e2e
