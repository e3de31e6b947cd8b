#include "bot/pgn/pgn_writer.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "bot/lichess/events.h"
#include "engine/chess/notation.h"
#include "engine/chess/position.h"

namespace zh::bot {

namespace {

std::string tag(const std::string& name, const std::string& value) {
  std::string escaped;
  for (char c : value) {
    if (c == '"' || c == '\\') escaped += '\\';
    if (c == '\n' || c == '\r') continue;
    escaped += c;
  }
  return "[" + name + " \"" + escaped + "\"]\n";
}

std::string clock_text(std::int64_t ms) {
  const std::int64_t s = std::max<std::int64_t>(0, ms) / 1000;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", (long long)(s / 3600),
                (long long)(s / 60 % 60), (long long)(s % 60));
  return buf;
}

// Built with fmt rather than `"#" + std::to_string(...)`: GCC 12 at -O3 reports a spurious
// -Wrestrict inside std::string's operator+ when it is inlined here (issue 9).
std::string eval_text(const PgnMoveNote& n) {
  if (n.eval_mate) return fmt::format("#{}", *n.eval_mate);
  return fmt::format("{:.2f}", *n.eval_cp / 100.0);
}

std::string comment(const PgnMoveNote& n) {
  std::string c = n.label;
  if (n.eval_cp || n.eval_mate) {
    if (!c.empty()) c += ' ';
    fmt::format_to(std::back_inserter(c), "[%eval {}]", eval_text(n));
  }
  if (n.clock_ms) {
    if (!c.empty()) c += ' ';
    fmt::format_to(std::back_inserter(c), "[%clk {}]", clock_text(*n.clock_ms));
  }
  return c.empty() ? c : fmt::format("{{ {} }}", c);
}

// Move text wrapped at 80 columns, as PGN export format asks.
class Wrapper {
 public:
  void add(const std::string& token) {
    if (line_ + (line_ ? 1 : 0) + token.size() > 80 && line_ > 0) {
      out_ += "\n";
      line_ = 0;
    } else if (line_ > 0) {
      out_ += " ";
      ++line_;
    }
    out_ += token;
    line_ += token.size();
  }
  std::string str() const { return out_ + "\n"; }

 private:
  std::string out_;
  std::size_t line_ = 0;
};

std::string time_control(const PgnGame& g) {
  if (!g.clock_initial_ms) return "-";
  return std::to_string(*g.clock_initial_ms / 1000) + "+" +
         std::to_string(g.clock_increment_ms.value_or(0) / 1000);
}

}  // namespace

std::string pgn_result(const std::string& status, const std::string& winner) {
  if (winner == "white") return "1-0";
  if (winner == "black") return "0-1";
  if (status.empty() || status == "created" || status == "started" || status == "aborted" ||
      status == "noStart" || status == "unknownFinish")
    return "*";
  return "1/2-1/2";
}

std::string pgn_termination(const std::string& status) {
  if (status == "outoftime") return "Time forfeit";
  if (status == "timeout" || status == "noStart" || status == "aborted") return "Abandoned";
  if (status == "cheat") return "Rules infraction";
  if (status.empty() || status == "created" || status == "started") return "Unterminated";
  return "Normal";
}

std::string write_pgn(const PgnGame& g) {
  const bool standard_start = g.initial_fen.empty() || g.initial_fen == "startpos";
  Position pos = standard_start ? Position() : Position::from_fen(g.initial_fen);

  const std::time_t secs = std::time_t(g.start_time_ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char date[32], time[32];
  std::snprintf(date, sizeof date, "%04d.%02d.%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
  std::snprintf(time, sizeof time, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
  const std::string result = pgn_result(g.status, g.winner);

  std::string out;
  out += tag("Event", std::string(g.rated ? "Rated" : "Casual") + " Crazyhouse game");
  out += tag("Site", g.site_base + "/" + g.game_id);
  out += tag("Date", date);
  out += tag("White", g.white.empty() ? "?" : g.white);
  out += tag("Black", g.black.empty() ? "?" : g.black);
  out += tag("Result", result);
  out += tag("UTCDate", date);
  out += tag("UTCTime", time);
  if (g.white_elo) out += tag("WhiteElo", std::to_string(*g.white_elo));
  if (g.black_elo) out += tag("BlackElo", std::to_string(*g.black_elo));
  if (!g.white_title.empty()) out += tag("WhiteTitle", g.white_title);
  if (!g.black_title.empty()) out += tag("BlackTitle", g.black_title);
  out += tag("Variant", "Crazyhouse");
  out += tag("TimeControl", time_control(g));
  out += tag("Termination", pgn_termination(g.status));
  if (!standard_start) {
    out += tag("FEN", g.initial_fen);
    out += tag("SetUp", "1");
  }
  out += "\n";

  Wrapper text;
  bool need_number = true;
  for (std::size_t ply = 0; ply < g.uci_moves.size(); ++ply) {
    const Move m = parse_uci(pos, g.uci_moves[ply]);
    const bool white = pos.side_to_move() == kWhite;
    if (white)
      text.add(std::to_string(pos.fullmove_number()) + ".");
    else if (need_number)
      text.add(std::to_string(pos.fullmove_number()) + "...");
    text.add(to_san(pos, m));
    pos.do_move(m);
    need_number = false;
    if (ply < g.notes.size()) {
      const std::string c = comment(g.notes[ply]);
      if (!c.empty()) {
        text.add(c);
        need_number = true;  // after a comment, Black's move gets its "N..." again
      }
    }
  }
  text.add(result);
  return out + text.str() + "\n";
}

std::filesystem::path save_pgn(const std::filesystem::path& dir, const PgnGame& game) {
  if (!is_valid_id(game.game_id)) throw std::runtime_error("refusing to save a PGN: bad game id");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create pgn_dir '" + dir.string() + "': " + ec.message());
  const auto path = dir / (game.game_id + ".pgn");
  const auto tmp = dir / (game.game_id + ".pgn.tmp");
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << write_pgn(game);
    if (!out) throw std::runtime_error("cannot write '" + tmp.string() + "'");
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw std::runtime_error("cannot rename to '" + path.string() + "': " + ec.message());
  return path;
}

}  // namespace zh::bot
