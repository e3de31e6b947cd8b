#include "engine/book/opening_book.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

#include "engine/chess/notation.h"
#include "engine/util/strings.h"

namespace zh::book {

namespace {

bool has_legal_en_passant(const Position& pos) {
  if (pos.ep_square() == kNoSquare) return false;
  for (Move m : pos.legal_moves())
    if (m.is_en_passant()) return true;
  return false;
}

// Splits "a b c" at single spaces or runs of blanks; the view stays in `text`.
std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) out.push_back(text.substr(start, i - start));
  }
  return out;
}

// One line of a book file being read; every problem is thrown with the line's place.
class LineParser {
 public:
  LineParser(const std::string& source, std::size_t line) : source_(source), line_(line) {}

  [[noreturn]] void fail(const std::string& problem) const {
    throw BookError(source_ + ":" + std::to_string(line_) + ": " + problem);
  }

  std::uint32_t weight(std::string_view text, std::string_view move) const {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value == 0 ||
        value > kMaxWeight)
      fail("move '" + std::string(move) + "': weight '" + std::string(text) +
           "' is not a whole number in [1, " + std::to_string(kMaxWeight) + "]");
    return std::uint32_t(value);
  }

 private:
  const std::string& source_;
  std::size_t line_;
};

}  // namespace

std::string book_key(const Position& pos) {
  const std::vector<std::string> fields = split_words(pos.fen());
  // fen() always writes all six fields; the key is the first four.
  std::string key = fields.at(0) + " " + fields.at(1) + " " + fields.at(2) + " ";
  key += has_legal_en_passant(pos) ? fields.at(3) : std::string("-");
  return key;
}

void OpeningBook::add(const Position& pos, Move move, std::uint32_t weight) {
  auto& moves = entries_[book_key(pos)].moves;
  auto it = std::find_if(moves.begin(), moves.end(),
                         [move](const BookMove& b) { return b.move == move; });
  if (it == moves.end()) {
    moves.push_back({move, std::min(weight, kMaxWeight)});
  } else {
    it->weight =
        std::uint32_t(std::min<std::uint64_t>(std::uint64_t(it->weight) + weight, kMaxWeight));
  }
  sort_moves(moves);
}

void OpeningBook::sort_moves(std::vector<BookMove>& moves) const {
  // Heaviest first; equal weights in a fixed order so a written book is stable.
  std::stable_sort(moves.begin(), moves.end(), [](const BookMove& a, const BookMove& b) {
    if (a.weight != b.weight) return a.weight > b.weight;
    return a.move.raw() < b.move.raw();
  });
}

const std::vector<BookMove>& OpeningBook::moves(const Position& pos) const {
  static const std::vector<BookMove> kNone;
  if (entries_.empty()) return kNone;
  auto it = entries_.find(book_key(pos));
  return it == entries_.end() ? kNone : it->second.moves;
}

std::size_t OpeningBook::total_moves() const {
  std::size_t n = 0;
  for (const auto& [key, entry] : entries_) n += entry.moves.size();
  return n;
}

OpeningBook OpeningBook::parse(std::string_view text, const std::string& source) {
  if (trim(text).empty())
    throw BookError(source + ": empty file; a zhbot book starts with '" + std::string(kBookHeader) +
                    "'");
  OpeningBook book;
  std::unordered_map<std::string, std::size_t> first_line;  // key -> line it was defined on
  bool header_seen = false;
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const LineParser p(source, line_no);
    const std::string trimmed = trim(line);
    if (!header_seen) {
      if (trimmed != kBookHeader) {
        if (trimmed.rfind("zhbot-book ", 0) == 0)
          p.fail("book format version '" + trimmed.substr(11) +
                 "' is not one this zhbot reads (it reads '" + std::string(kBookHeader) + "')");
        p.fail("not a zhbot book: the first line must be '" + std::string(kBookHeader) + "'");
      }
      header_seen = true;
      continue;
    }
    if (trimmed.empty() || trimmed[0] == '#') continue;
    const std::size_t bar = line.find('|');
    if (bar == std::string_view::npos)
      p.fail("expected '<FEN> | <move>:<weight> ...', found no '|'");
    const std::string fen = trim(line.substr(0, bar));
    const std::vector<std::string_view> fen_fields = words(fen);
    if (fen_fields.size() != 4)
      p.fail(
          "the position must be 4 FEN fields (board, side, castling, en passant; no "
          "counters), found " +
          std::to_string(fen_fields.size()) + " in '" + fen + "'");
    Position position;
    try {
      position = Position::from_fen(fen);
    } catch (const FenError& e) {
      p.fail("bad FEN '" + fen + "': " + e.what());
    }
    std::string key = book_key(position);
    if (auto [it, fresh] = first_line.emplace(key, line_no); !fresh)
      p.fail("position '" + key + "' is already in the book (line " + std::to_string(it->second) +
             ")");
    const std::vector<std::string_view> items = words(line.substr(bar + 1));
    if (items.empty()) p.fail("position '" + fen + "' has no moves");
    std::vector<BookMove> moves;
    moves.reserve(items.size());
    for (std::string_view item : items) {
      const std::size_t colon = item.rfind(':');
      if (colon == std::string_view::npos)
        p.fail("expected <move>:<weight>, found '" + std::string(item) + "'");
      const std::string_view text_move = item.substr(0, colon);
      BookMove bm;
      try {
        bm.move = parse_uci(position, text_move);
      } catch (const MoveError& e) {
        p.fail(e.what());
      }
      bm.weight = p.weight(item.substr(colon + 1), text_move);
      for (const BookMove& other : moves)
        if (other.move == bm.move) p.fail("move '" + std::string(text_move) + "' is listed twice");
      moves.push_back(bm);
    }
    book.sort_moves(moves);
    book.entries_.emplace(std::move(key), Entry{std::move(moves)});
  }
  if (!header_seen)
    throw BookError(source + ": empty file; a zhbot book starts with '" + std::string(kBookHeader) +
                    "'");
  return book;
}

OpeningBook OpeningBook::load(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw BookError("cannot read book file '" + path.string() + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str(), path.string());
}

void OpeningBook::write(std::ostream& out) const {
  out << kBookHeader << "\n";
  out << "# " << entries_.size() << " positions; <FEN: board/pockets side castling ep> | "
      << "<uci move>:<weight> ...\n";
  std::map<std::string_view, const Entry*> sorted;
  for (const auto& [key, entry] : entries_) sorted.emplace(key, &entry);
  for (const auto& [key, entry] : sorted) {
    if (entry->moves.empty()) continue;
    out << key << " |";
    for (const BookMove& m : entry->moves) out << " " << to_uci(m.move) << ":" << m.weight;
    out << "\n";
  }
}

void OpeningBook::save(const std::filesystem::path& path) const {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw BookError("cannot write book file '" + tmp.string() + "'");
    write(out);
    out.flush();
    if (!out) throw BookError("writing book file '" + tmp.string() + "' failed");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec)
    throw BookError("cannot rename '" + tmp.string() + "' to '" + path.string() +
                    "': " + ec.message());
}

Move choose_move(const std::vector<BookMove>& moves, Selection selection, std::uint32_t min_weight,
                 std::mt19937_64& rng) {
  std::uint64_t total = 0;
  for (const BookMove& m : moves)
    if (m.weight >= min_weight) total += m.weight;
  if (total == 0) return Move();
  if (selection == Selection::kBest) return moves.front().move;  // heaviest first
  std::uniform_int_distribution<std::uint64_t> pick(0, total - 1);
  std::uint64_t r = pick(rng);
  for (const BookMove& m : moves) {
    if (m.weight < min_weight) continue;
    if (r < m.weight) return m.move;
    r -= m.weight;
  }
  return Move();  // unreachable
}

}  // namespace zh::book
