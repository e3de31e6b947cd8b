#include "tests/emulator/emu_game.h"

#include <algorithm>
#include <string_view>

namespace zh::emulator {
namespace {

bool is_file(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank(char c) { return c >= '1' && c <= '8'; }
bool is_square(std::string_view s) { return s.size() == 2 && is_file(s[0]) && is_rank(s[1]); }

// Lichess's UCI grammar: a board move with optional promotion (e2e4, e7e8q), or an upper-case
// drop (P@e4). Spelled out rather than a std::regex: GCC 12's <regex> trips a false
// -Wmaybe-uninitialized under the sanitizers' instrumentation (asan preset, -Werror).
bool looks_like_uci(std::string_view text) {
  const bool is_drop = text.size() == 4 && text[1] == '@' &&
                       std::string_view("PNBRQ").find(text[0]) != std::string_view::npos;
  if (is_drop) return is_square(text.substr(2));
  if (text.size() == 5 && std::string_view("qrbnk").find(text[4]) == std::string_view::npos) {
    return false;
  }
  return (text.size() == 4 || text.size() == 5) && is_square(text.substr(0, 2)) &&
         is_square(text.substr(2, 2));
}

}  // namespace

EmuGame::EmuGame(GameSetup setup, SteadyTime now)
    : setup_(std::move(setup)),
      clock_(setup_.initial_ms, setup_.increment_ms),
      last_activity_(now) {}

std::vector<std::string> EmuGame::uci_moves(CastlingNotation castling) const {
  std::vector<std::string> out;
  out.reserve(game_.moves().size());
  for (Move m : game_.moves()) out.push_back(to_uci(m, castling));
  return out;
}

std::string EmuGame::moves_text() const {
  std::string out;
  for (const auto& m : uci_moves(CastlingNotation::kKingToRook)) {
    if (!out.empty()) out += ' ';
    out += m;
  }
  return out;
}

std::string EmuGame::last_move_uci() const {
  if (game_.moves().empty()) return "";
  return to_uci(game_.moves().back(), CastlingNotation::kKingToRook);
}

Millis EmuGame::remaining(Color c, SteadyTime now) const {
  if (!setup_.has_clock) return kNoClockMillis;
  return std::max<Millis>(0, clock_.remaining(c, now));
}

std::optional<std::string> EmuGame::play(Color side, std::string_view uci, SteadyTime now) {
  // A flag that fell before the move arrived ends the game first, as the server would.
  if (finished() || tick(now) || side != side_to_move()) return std::string(kNotYourTurn);
  const std::string text(uci);
  if (!looks_like_uci(text)) return "Invalid UCI: " + text;
  Move m;
  try {
    m = parse_uci(game_.position(), text);
  } catch (const MoveError&) {
    return "Invalid UCI: " + text + " (illegal move)";
  }
  game_.play(m);
  after_move(side, now);
  return std::nullopt;
}

void EmuGame::after_move(Color mover, SteadyTime now) {
  draw_offer_[~mover] = false;  // moving declines the opponent's pending offer
  takeback_offer_[kWhite] = takeback_offer_[kBlack] = false;
  last_activity_ = now;
  if (setup_.has_clock) clock_.on_move(mover, plies(), now);
  const GameOutcome outcome = game_.outcome();
  switch (outcome.termination) {
    case Termination::kCheckmate:
      finish(GameStatus::kMate, mover, now);
      break;
    case Termination::kStalemate:
      finish(GameStatus::kStalemate, std::nullopt, now);
      break;
    case Termination::kFivefoldRepetition:
      finish(GameStatus::kDraw, std::nullopt, now);
      break;
    case Termination::kNone:
      break;
  }
}

void EmuGame::finish(GameStatus status, std::optional<Color> winner, SteadyTime now) {
  if (finished()) return;
  status_ = status;
  winner_ = winner;
  if (setup_.has_clock) clock_.stop(now);
  draw_offer_[kWhite] = draw_offer_[kBlack] = false;
  takeback_offer_[kWhite] = takeback_offer_[kBlack] = false;
}

std::optional<std::string> EmuGame::abort(Color, SteadyTime now) {
  if (!abortable()) return std::string("This game can no longer be aborted");
  finish(GameStatus::kAborted, std::nullopt, now);
  return std::nullopt;
}

std::optional<std::string> EmuGame::resign(Color side, SteadyTime now) {
  if (finished()) return std::string("This game cannot be resigned");
  // Lichess aborts instead of resigning while the game is still abortable.
  if (abortable())
    finish(GameStatus::kAborted, std::nullopt, now);
  else
    finish(GameStatus::kResign, ~side, now);
  return std::nullopt;
}

std::optional<std::string> EmuGame::claim_victory(Color side, SteadyTime now) {
  if (finished() || !gone_[~side] || now < gone_claim_at_[~side])
    return std::string("You cannot claim the win on this game");
  finish(GameStatus::kTimeout, side, now);
  return std::nullopt;
}

std::optional<std::string> EmuGame::claim_draw(Color side, SteadyTime now) {
  if (finished() || !gone_[~side] || now < gone_claim_at_[~side])
    return std::string("You cannot claim draw on this game");
  finish(GameStatus::kDraw, std::nullopt, now);
  return std::nullopt;
}

bool EmuGame::draw(Color side, bool yes, SteadyTime now) {
  if (finished()) return false;
  if (!yes) {
    if (!draw_offer_[~side]) return false;
    draw_offer_[~side] = false;
    return true;
  }
  if (draw_offer_[~side]) {
    finish(GameStatus::kDraw, std::nullopt, now);
    return true;
  }
  if (draw_offer_[side]) return false;
  draw_offer_[side] = true;
  return true;
}

bool EmuGame::takeback(Color side, bool yes, SteadyTime now) {
  if (finished()) return false;
  if (!yes) {
    if (!takeback_offer_[~side]) return false;
    takeback_offer_[~side] = false;
    return true;
  }
  if (takeback_offer_[~side]) {
    // Take back the proposer's last move, and the reply to it when there was one.
    const Color proposer = ~side;
    const int n = side_to_move() == proposer ? 2 : 1;
    if (plies() < n) return false;
    rebuild_without_last(n, now);
    return true;
  }
  if (takeback_offer_[side] || !has_moved(side)) return false;
  takeback_offer_[side] = true;
  return true;
}

void EmuGame::rebuild_without_last(int n, SteadyTime now) {
  const std::vector<Move> moves = game_.moves();
  Game rebuilt(game_.start());
  for (std::size_t i = 0; i + std::size_t(n) < moves.size(); ++i) rebuilt.play(moves[i]);
  game_ = std::move(rebuilt);
  takeback_offer_[kWhite] = takeback_offer_[kBlack] = false;
  draw_offer_[kWhite] = draw_offer_[kBlack] = false;
  last_activity_ = now;
  if (setup_.has_clock) clock_.set_turn(side_to_move(), now);  // no time is given back
}

void EmuGame::set_gone(Color side, bool gone, Millis claim_ms, SteadyTime now) {
  gone_[side] = gone;
  gone_claim_at_[side] = now + std::chrono::milliseconds(claim_ms);
}

int EmuGame::claim_win_in_seconds(Color gone_side, SteadyTime now) const {
  const Millis left = millis_between(now, gone_claim_at_[gone_side]);
  return left <= 0 ? 0 : int((left + 999) / 1000);
}

bool EmuGame::tick(SteadyTime now) {
  if (finished()) return false;
  const Color stm = side_to_move();
  if (setup_.has_clock && clock_.running() && clock_.remaining(stm, now) <= 0) {
    finish(GameStatus::kOutOfTime, ~stm, now);
    return true;
  }
  if (plies() < 2 && idle_millis(now) >= setup_.first_move_ms) {
    // Lichess ends the game as noStart, won by the side that is not to blame.
    finish(GameStatus::kNoStart, ~stm, now);
    return true;
  }
  return false;
}

}  // namespace zh::emulator
