#pragma once
// The teacher: a UCI engine (Fairy-Stockfish by default) asked for its best moves with scores.
// Its answers are checked against our own rules; whatever it prints that we do not
// understand is counted and ignored. A teacher that dies, hangs or answers an illegal move
// raises TeacherError; the caller abandons the game in flight and calls restart().

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/chess/game.h"
#include "engine/util/child_process.h"

namespace zh::datagen {

struct TeacherConfig {
  std::string path = "/usr/games/fairy-stockfish";
  std::int64_t nodes = 3000;  // per position; 0 with depth > 0: search to that depth
  int depth = 0;
  int multipv = 4;
  int hash_mb = 16;
  int skill_level = -1;  // Fairy-Stockfish's Skill Level 0..20 (an opponent); -1: not set
  std::chrono::milliseconds timeout{30000};  // no bestmove by then: the teacher is hung
};

struct TeacherLine {
  Move move;     // first move of the line, legal in the position
  int cp = 0;    // for the side to move
  int mate = 0;  // moves to mate (negative: being mated), 0 when the score is cp
};

struct TeacherAnswer {
  Move best;                       // null when the position has no legal move
  std::vector<TeacherLine> lines;  // by MultiPV rank; lines[0].move == best
};

class TeacherError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class UciTeacher {
 public:
  // Starts the engine and sets it up for crazyhouse. Throws TeacherError (missing binary,
  // no crazyhouse support, no answer).
  explicit UciTeacher(TeacherConfig config);
  ~UciTeacher();

  void new_game();
  // Searches game.position() (sent as start + moves, so the engine sees the repetitions).
  TeacherAnswer search(const Game& game);
  // Kills the engine and starts a fresh one (after a TeacherError).
  void restart();

  // Lines seen that were neither understood nor expected (garbage, unknown info).
  std::int64_t ignored_lines() const { return ignored_lines_; }
  std::int64_t restarts() const { return restarts_; }
  // Wall time spent waiting for search answers: the teacher's own work.
  double search_seconds() const { return search_seconds_; }

 private:
  void start();
  void send(const std::string& line);
  std::string expect(const std::string& prefix);  // reads until a line starts with prefix

  TeacherConfig config_;
  std::unique_ptr<ChildProcess> process_;
  std::int64_t ignored_lines_ = 0;
  std::int64_t restarts_ = 0;
  double search_seconds_ = 0.0;
};

// Parses one "info ..." line into (multipv rank, line); false when it carries no usable score
// and first move (a currmove line, a bound, a move that is not legal in `pos`).
bool parse_info_line(const std::string& text, const Position& pos, int& rank, TeacherLine& out);

}  // namespace zh::datagen
