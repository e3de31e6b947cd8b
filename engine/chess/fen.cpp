// FEN in both crazyhouse pocket forms ("[Qn]" after the board, or "/Qn" as a ninth rank),
// with "~" after promoted pieces; written in lichess's form.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>
#include <vector>

#include "engine/chess/bitboard.h"
#include "engine/chess/position.h"

namespace zh {

namespace {

constexpr std::string_view kPieceLetters = "pnbrqk";

std::string square_text(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

PieceType piece_type_from_letter(char c) {
  auto pos = kPieceLetters.find(char(std::tolower(static_cast<unsigned char>(c))));
  return pos == std::string_view::npos ? kNoPieceType : PieceType(pos);
}

std::vector<std::string_view> split_fields(std::string_view text) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) fields.push_back(text.substr(start, i - start));
  }
  return fields;
}

}  // namespace

// Builds a position field by field; every error names the field and the offending text.
class FenParser {
 public:
  explicit FenParser(std::string_view fen) : fen_(fen) {}

  Position parse() {
    auto fields = split_fields(fen_);
    if (fields.empty()) fail("it is empty");
    if (fields.size() > 6) fail("it has " + std::to_string(fields.size()) + " fields, at most 6");
    pos_.clear();
    parse_placement(fields[0]);
    if (fields.size() < 2) fail("the side to move is missing (expected 'w' or 'b')");
    parse_side(fields[1]);
    if (fields.size() > 2) parse_castling(fields[2]);
    if (fields.size() > 3) parse_ep(fields[3]);
    if (fields.size() > 4)
      pos_.halfmove_ = std::uint16_t(parse_number(fields[4], "halfmove clock", 0, 100));
    if (fields.size() > 5)
      pos_.fullmove_ = std::uint16_t(parse_number(fields[5], "fullmove number", 1, 500));
    validate();
    pos_.update_derived();
    return pos_;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw FenError("invalid FEN '" + std::string(fen_) + "': " + why);
  }

  void parse_placement(std::string_view field) {
    std::string_view board = field, pocket;
    bool has_pocket = false;
    if (auto open = field.find('['); open != std::string_view::npos) {
      if (field.back() != ']')
        fail("the pocket '" + std::string(field.substr(open)) + "' has no closing ']'");
      board = field.substr(0, open);
      pocket = field.substr(open + 1, field.size() - open - 2);
      has_pocket = true;
    }
    std::vector<std::string_view> ranks;
    size_t start = 0;
    for (size_t i = 0; i <= board.size(); ++i) {
      if (i == board.size() || board[i] == '/') {
        ranks.push_back(board.substr(start, i - start));
        start = i + 1;
      }
    }
    if (ranks.size() == 9 && !has_pocket) {
      pocket = ranks[8];  // lichess form: the pocket is a ninth rank
      ranks.pop_back();
    }
    if (ranks.size() != 8)
      fail("the board has " + std::to_string(ranks.size()) +
           " ranks, expected 8 (plus an optional pocket)");
    for (int i = 0; i < 8; ++i) parse_rank(ranks[i], 7 - i);
    parse_pocket(pocket);
  }

  void parse_rank(std::string_view text, int rank) {
    int file = 0;
    const std::string where = "rank " + std::to_string(rank + 1) + " ('" + std::string(text) + "')";
    for (size_t i = 0; i < text.size(); ++i) {
      char c = text[i];
      if (c >= '1' && c <= '8') {
        file += c - '0';
      } else if (c == '~') {
        if (i == 0 || !std::isalpha(static_cast<unsigned char>(text[i - 1])))
          fail(where + ": '~' must follow a piece letter");
        Square s = make_square(file - 1, rank);
        if (type_of(pos_.board_[s]) != kPawn && type_of(pos_.board_[s]) != kKing)
          pos_.promoted_ |= square_bb(s);
      } else {
        PieceType pt = piece_type_from_letter(c);
        if (pt == kNoPieceType) fail(where + ": unexpected character '" + std::string(1, c) + "'");
        if (file >= 8) fail(where + " has more than 8 squares");
        Color color = std::isupper(static_cast<unsigned char>(c)) ? kWhite : kBlack;
        if (pt == kPawn && (rank == 0 || rank == 7))
          fail(where + ": a pawn cannot stand on the first or last rank");
        pos_.put_piece(make_piece(color, pt), make_square(file, rank));
        ++file;
      }
      if (file > 8) fail(where + " has more than 8 squares");
    }
    if (file != 8) fail(where + " has " + std::to_string(file) + " squares, expected 8");
  }

  void parse_pocket(std::string_view text) {
    for (char c : text) {
      if (c == '-') continue;
      PieceType pt = piece_type_from_letter(c);
      if (pt == kNoPieceType)
        fail("the pocket '" + std::string(text) + "' has an unexpected character '" +
             std::string(1, c) + "'");
      if (pt == kKing) continue;  // as lichess: a king in the pocket is ignored
      Color color = std::isupper(static_cast<unsigned char>(c)) ? kWhite : kBlack;
      if (pos_.pocket_[color][pt] >= 64)
        fail("the pocket '" + std::string(text) + "' holds too many pieces");
      ++pos_.pocket_[color][pt];
    }
  }

  void parse_side(std::string_view text) {
    if (text == "w")
      pos_.side_ = kWhite;
    else if (text == "b")
      pos_.side_ = kBlack;
    else
      fail("the side to move is '" + std::string(text) + "', expected 'w' or 'b'");
  }

  void parse_castling(std::string_view text) {
    if (text == "-") return;
    for (char c : text) {
      Color color = std::isupper(static_cast<unsigned char>(c)) ? kWhite : kBlack;
      char lower = char(std::tolower(static_cast<unsigned char>(c)));
      unsigned right;
      if (lower == 'k' || lower == 'h')
        right = color == kWhite ? kWhiteOO : kBlackOO;
      else if (lower == 'q' || lower == 'a')
        right = color == kWhite ? kWhiteOOO : kBlackOOO;
      else
        fail("the castling field '" + std::string(text) + "' has an unexpected character '" +
             std::string(1, c) + "'");
      // Keep a right only when king and rook stand on their squares (lichess does the same).
      const int rank = color == kWhite ? 0 : 7;
      const Square king = make_square(4, rank);
      const Square rook = make_square(right & (kWhiteOO | kBlackOO) ? 7 : 0, rank);
      if (pos_.board_[king] == make_piece(color, kKing) &&
          pos_.board_[rook] == make_piece(color, kRook) && !(pos_.promoted_ & square_bb(rook)))
        pos_.castling_ |= std::uint8_t(right);
    }
  }

  void parse_ep(std::string_view text) {
    if (text == "-") return;
    if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || (text[1] != '3' && text[1] != '6'))
      fail("the en passant field '" + std::string(text) +
           "' is not '-' or a square on rank 3 or 6");
    // Stored only if a legal capture exists; update_derived() drops it otherwise.
    Square s = make_square(text[0] - 'a', text[1] - '1');
    bool matches_side = (pos_.side_ == kWhite) == (text[1] == '6');
    if (matches_side) pos_.ep_ = s;
  }

  int parse_number(std::string_view text, const std::string& name, int lo, int hi) {
    int value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size() || value < 0)
      fail("the " + name + " '" + std::string(text) + "' is not a non-negative number");
    return std::clamp(value, lo, hi);  // lichess clamps these counters the same way
  }

  void validate() {
    for (Color c : {kWhite, kBlack}) {
      int kings = popcount(pos_.pieces(c, kKing));
      if (kings != 1)
        fail(std::string(c == kWhite ? "white" : "black") + " has " + std::to_string(kings) +
             " kings, expected 1");
    }
    if (pos_.attackers_to(pos_.king_square(~pos_.side_), pos_.pieces(), pos_.side_))
      fail("the side not to move is in check");
    if (pos_.ep_ != kNoSquare) {
      // The pawn that just made the double step must be there, and the squares it crossed empty.
      const Color mover = ~pos_.side_;
      const Square pawn_sq = Square(mover == kWhite ? pos_.ep_ + 8 : pos_.ep_ - 8);
      const Square origin = Square(mover == kWhite ? pos_.ep_ - 8 : pos_.ep_ + 8);
      if (pos_.board_[pawn_sq] != make_piece(mover, kPawn) || pos_.board_[pos_.ep_] != kNoPiece ||
          pos_.board_[origin] != kNoPiece)
        pos_.ep_ = kNoSquare;
    }
  }

  std::string_view fen_;
  Position pos_{Position::Empty{}};
};

Position Position::from_fen(std::string_view fen) { return FenParser(fen).parse(); }

std::string Position::fen() const {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      Square s = make_square(file, rank);
      Piece p = board_[s];
      if (p == kNoPiece) {
        ++empty;
        continue;
      }
      if (empty) out += char('0' + empty);
      empty = 0;
      char letter = kPieceLetters[type_of(p)];
      out += color_of(p) == kWhite ? char(std::toupper(letter)) : letter;
      if (promoted_ & square_bb(s)) out += '~';
    }
    if (empty) out += char('0' + empty);
    out += '/';
  }
  for (Color c : {kWhite, kBlack})
    for (int pt = kPawn; pt <= kQueen; ++pt)
      out.append(pocket_[c][pt],
                 c == kWhite ? char(std::toupper(kPieceLetters[pt])) : kPieceLetters[pt]);
  out += side_ == kWhite ? " w " : " b ";
  std::string castling;
  if (castling_ & kWhiteOO) castling += 'K';
  if (castling_ & kWhiteOOO) castling += 'Q';
  if (castling_ & kBlackOO) castling += 'k';
  if (castling_ & kBlackOOO) castling += 'q';
  out += castling.empty() ? "-" : castling;
  out += ' ';
  out += ep_ == kNoSquare ? "-" : square_text(ep_);
  out += ' ' + std::to_string(halfmove_) + ' ' + std::to_string(fullmove_);
  return out;
}

}  // namespace zh
