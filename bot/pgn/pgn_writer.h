#pragma once
// PGN of a finished lichess game, as lichess exports it (Seven Tag Roster plus the lichess
// headers, Variant "Crazyhouse"), SAN moves with drops (N@f7+), and on our moves the
// evaluation and clock comments lichess itself uses: { [%eval 0.35] [%clk 0:02:58] }; a book
// move has no evaluation and says where it came from: { book [%clk 0:02:59] }.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace zh::bot {

struct PgnMoveNote {
  std::optional<int> eval_cp;    // White's point of view, centipawns
  std::optional<int> eval_mate;  // moves to mate, White's point of view (negative: Black mates)
  std::optional<std::int64_t> clock_ms;  // the mover's clock after the move
  std::string label;                     // free text before the tags, e.g. "book" for a book move
};

struct PgnGame {
  std::string game_id;
  std::string site_base = "https://lichess.org";
  bool rated = false;
  std::int64_t start_time_ms = 0;  // Unix epoch ms (Date, UTCDate, UTCTime)
  std::string white, black;
  std::string white_title, black_title;
  std::optional<int> white_elo, black_elo;
  std::optional<std::int64_t> clock_initial_ms, clock_increment_ms;  // absent: no clock
  std::string initial_fen;  // "" or "startpos" for the standard start
  std::vector<std::string> uci_moves;
  std::vector<PgnMoveNote> notes;  // by ply index; may be shorter than uci_moves
  std::string status;              // lichess status name, e.g. "mate", "resign", "outoftime"
  std::string winner;              // "white" | "black" | ""
};

// "1-0", "0-1", "1/2-1/2" or "*" from the lichess status and winner.
std::string pgn_result(const std::string& status, const std::string& winner);
// Lichess's Termination header value for a status.
std::string pgn_termination(const std::string& status);

// Throws zh::MoveError if a move is not legal (the game must be consistent).
std::string write_pgn(const PgnGame& game);

// Writes <dir>/<game_id>.pgn (creating dir) atomically; returns the path. Throws
// std::runtime_error with the path on I/O failure.
std::filesystem::path save_pgn(const std::filesystem::path& dir, const PgnGame& game);

}  // namespace zh::bot
