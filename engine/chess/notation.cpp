#include "engine/chess/notation.h"

#include <cctype>
#include <string>

namespace zh {

namespace {

constexpr std::string_view kUpperLetters = "PNBRQK";

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

PieceType piece_from_upper(char c) {
  auto i = kUpperLetters.find(char(std::toupper(static_cast<unsigned char>(c))));
  return i == std::string_view::npos ? kNoPieceType : PieceType(i);
}

// Where the rook of a castling move stands (the "king takes rook" destination).
Square castling_rook_square(Move m) {
  return Square(m.to() > m.from() ? m.from() + 3 : m.from() - 4);
}

}  // namespace

std::string square_name(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

Square parse_square(std::string_view t) {
  if (t.size() != 2 || t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8') return kNoSquare;
  return make_square(t[0] - 'a', t[1] - '1');
}

std::string to_uci(Move m, CastlingNotation castling) {
  if (m.is_drop()) return std::string(1, kUpperLetters[m.piece()]) + "@" + square_name(m.to());
  Square to = m.to();
  if (m.is_castling() && castling == CastlingNotation::kKingToRook) to = castling_rook_square(m);
  std::string s = square_name(m.from()) + square_name(to);
  if (m.is_promotion()) s += char(std::tolower(kUpperLetters[m.piece()]));
  return s;
}

Move parse_uci(const Position& pos, std::string_view text) {
  const MoveList legal = pos.legal_moves();
  auto not_legal = [&]() -> Move {
    throw MoveError("move " + quoted(text) + " is not legal in " + pos.fen());
  };
  if (text.size() == 4 && text[1] == '@') {
    PieceType pt = piece_from_upper(text[0]);
    Square to = parse_square(text.substr(2));
    if (pt == kNoPieceType || pt == kKing || to == kNoSquare)
      throw MoveError("malformed drop " + quoted(text) + " (expected like P@e4)");
    Move m = Move::drop(pt, to);
    return legal.contains(m) ? m : not_legal();
  }
  if (text.size() != 4 && text.size() != 5)
    throw MoveError("malformed UCI move " + quoted(text) + " (expected like e2e4, e7e8q or P@e4)");
  Square from = parse_square(text.substr(0, 2)), to = parse_square(text.substr(2, 2));
  PieceType promo = kNoPieceType;
  if (text.size() == 5) {
    promo = piece_from_upper(text[4]);
    if (promo < kKnight || promo > kQueen)
      throw MoveError("malformed UCI move " + quoted(text) +
                      ": promotion piece must be n, b, r or q");
  }
  if (from == kNoSquare || to == kNoSquare)
    throw MoveError("malformed UCI move " + quoted(text) + " (expected like e2e4, e7e8q or P@e4)");
  for (Move m : legal) {
    if (m.is_drop() || m.from() != from || m.piece() != promo) continue;
    if (m.to() == to || (m.is_castling() && castling_rook_square(m) == to)) return m;
  }
  return not_legal();
}

std::string to_san(const Position& pos, Move m) {
  std::string san;
  if (m.is_drop()) {
    san = std::string(1, kUpperLetters[m.piece()]) + "@" + square_name(m.to());
  } else if (m.is_castling()) {
    san = m.to() > m.from() ? "O-O" : "O-O-O";
  } else {
    const PieceType pt = type_of(pos.piece_on(m.from()));
    const bool capture = pos.is_capture(m);
    if (pt == kPawn) {
      if (capture) san = std::string(1, char('a' + file_of(m.from()))) + "x";
      san += square_name(m.to());
      if (m.is_promotion()) san += std::string("=") + kUpperLetters[m.piece()];
    } else {
      san = kUpperLetters[pt];
      // Disambiguate among other pieces of the same type that can reach the same square.
      bool ambiguous = false, same_file = false, same_rank = false;
      for (Move other : pos.legal_moves()) {
        if (other == m || other.is_drop() || other.to() != m.to() || other.from() == m.from())
          continue;
        if (type_of(pos.piece_on(other.from())) != pt) continue;
        ambiguous = true;
        same_file |= file_of(other.from()) == file_of(m.from());
        same_rank |= rank_of(other.from()) == rank_of(m.from());
      }
      if (ambiguous) {
        if (!same_file)
          san += char('a' + file_of(m.from()));
        else if (!same_rank)
          san += char('1' + rank_of(m.from()));
        else
          san += square_name(m.from());
      }
      if (capture) san += 'x';
      san += square_name(m.to());
    }
  }
  Position next = pos;
  next.do_move(m);
  if (next.in_check()) san += next.count_legal_moves() == 0 ? '#' : '+';
  return san;
}

Move parse_san(const Position& pos, std::string_view text) {
  std::string s(text);
  while (!s.empty() && std::string_view("+#!?").find(s.back()) != std::string_view::npos)
    s.pop_back();
  const MoveList legal = pos.legal_moves();
  auto unique = [&](auto&& matches) -> Move {
    Move found;
    int count = 0;
    for (Move m : legal)
      if (matches(m)) {
        found = m;
        ++count;
      }
    if (count == 1) return found;
    if (count == 0) throw MoveError("move " + quoted(text) + " is not legal in " + pos.fen());
    throw MoveError("move " + quoted(text) + " is ambiguous in " + pos.fen());
  };
  auto malformed = [&]() -> Move {
    throw MoveError("malformed SAN move " + quoted(text) +
                    " (expected like Nf3, exd5, e8=Q, N@f7, O-O)");
  };
  if (s == "O-O" || s == "0-0")
    return unique([](Move m) { return m.is_castling() && m.to() > m.from(); });
  if (s == "O-O-O" || s == "0-0-0")
    return unique([](Move m) { return m.is_castling() && m.to() < m.from(); });

  if (auto at = s.find('@'); at != std::string::npos) {
    // "N@f7", "P@e4", or "@e4" (a pawn drop as python-chess writes it).
    PieceType pt = at == 0 ? kPawn : (at == 1 ? piece_from_upper(s[0]) : kNoPieceType);
    Square to = parse_square(std::string_view(s).substr(at + 1));
    if (pt == kNoPieceType || pt == kKing || to == kNoSquare ||
        (at == 1 && !std::isupper(static_cast<unsigned char>(s[0]))))
      return malformed();
    return unique([&](Move m) { return m == Move::drop(pt, to); });
  }

  PieceType promo = kNoPieceType;
  if (auto eq = s.find('='); eq != std::string::npos) {
    if (eq + 2 != s.size()) return malformed();
    promo = piece_from_upper(s[eq + 1]);
    s.resize(eq);
  } else if (s.size() >= 3 && std::isalpha(static_cast<unsigned char>(s.back())) &&
             std::isupper(static_cast<unsigned char>(s.back()))) {
    promo = piece_from_upper(s.back());  // "e8Q"
    s.pop_back();
  }
  if (promo != kNoPieceType && (promo < kKnight || promo > kQueen)) return malformed();

  PieceType pt = kPawn;
  size_t i = 0;
  if (!s.empty() && std::isupper(static_cast<unsigned char>(s[0]))) {
    pt = piece_from_upper(s[0]);
    if (pt == kNoPieceType) return malformed();
    i = 1;
  }
  if (s.size() < i + 2) return malformed();
  Square to = parse_square(std::string_view(s).substr(s.size() - 2));
  if (to == kNoSquare) return malformed();
  std::string middle = s.substr(i, s.size() - 2 - i);
  if (!middle.empty() && middle.back() == 'x') middle.pop_back();
  int from_file = -1, from_rank = -1;
  for (char c : middle) {
    if (c >= 'a' && c <= 'h')
      from_file = c - 'a';
    else if (c >= '1' && c <= '8')
      from_rank = c - '1';
    else
      return malformed();
  }
  if (middle.size() > 2) return malformed();
  return unique([&](Move m) {
    if (m.is_drop() || m.is_castling() || m.to() != to || m.piece() != promo) return false;
    if (type_of(pos.piece_on(m.from())) != pt) return false;
    if (from_file >= 0 && file_of(m.from()) != from_file) return false;
    if (from_rank >= 0 && rank_of(m.from()) != from_rank) return false;
    return true;
  });
}

}  // namespace zh
