#pragma once
// `zhbot datagen --relabel FILE...`: the positions of games already played, labelled by the
// teacher exactly as in a teacher game. The lab's sequential tests and matches play thousands of
// zhbot's games (records of tools/measure/strength: one JSON object a line), and their positions
// are the states zhbot's own play leads to, which teacher games rarely reach. Labelling them costs
// the teacher's search alone (no game is played again), where `--own-games` pays for zhbot's
// search on every move as well.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "engine/chess/game.h"
#include "engine/datagen/teacher_game.h"
#include "engine/datagen/uci_teacher.h"

namespace zh::datagen {

struct RecordedGame {
  Game game;  // the opening and every move, checked legal
  GameResult result = GameResult::kDraw;
  bool zhbot_played = true;  // its records carry kFlagOwnGame
  std::uint64_t id = 0;      // from its opening and moves: the same game read twice is one game
};

struct RecordedGames {
  std::vector<RecordedGame> games;
  std::int64_t lines = 0;             // match-record lines and PGN games read
  std::int64_t unfinished = 0;        // a result other than 1-0, 0-1, 1/2-1/2: skipped
  std::int64_t other_variant = 0;     // a PGN game of another variant: skipped
  std::int64_t bad = 0;               // unreadable, no moves, a bad FEN or an illegal move: skipped
  std::int64_t repeated = 0;          // the same opening and moves as a game read before: skipped
  std::vector<std::string> examples;  // the first bad ones, named by file and line
};

// Reads every path: a match record (any other file, plain or .gz), a PGN file (*.pgn), or a
// folder, whose *.pgn and *.jsonl files below it are read in name order (the daemon's pgn_dir
// holds one PGN file per game it played).
// - A match record's line is a JSON object with "moves" (UCI, space-separated) and "result";
//   "opening" (a FEN; the start position when absent) and "white" / "black" (a side's name: a
//   game where both are given and neither begins with "zhbot" is not flagged as zhbot's) are
//   optional, other keys are ignored.
// - A PGN game is the main line's SAN moves from its FEN tag (or the start position), with the
//   result after the moves (or its Result tag); a Variant tag other than Crazyhouse skips it.
//   PGN games are taken as zhbot's (the daemon writes only its own).
// A missing path throws FormatError.
RecordedGames read_recorded_games(const std::vector<std::filesystem::path>& paths);
void print_report(const RecordedGames& games, std::ostream& out);

// Labels every position of `recorded` once (through `seen`), the records' results being the
// recorded game's. No adjudication: a recorded game is as long as it was.
PlayedGame label_recorded_game(UciTeacher& teacher, const RecordedGame& recorded,
                               const GameOptions& options, SeenPositions& seen,
                               const std::atomic<bool>& stop);

}  // namespace zh::datagen
