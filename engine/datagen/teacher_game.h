#pragma once
// One teacher game: the teacher plays both sides and labels every position. The opening is
// varied so that games differ: the first plies are random legal moves, the next ones are drawn
// from the teacher's MultiPV lines with a temperature; after that the teacher plays its best.

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <random>
#include <unordered_set>
#include <vector>

#include "engine/datagen/record_format.h"
#include "engine/datagen/uci_teacher.h"

namespace zh::datagen {

struct GameOptions {
  int random_plies_max = 2;            // the first 0..N plies (uniform per game) are random
  int sample_plies = 8;                // then N plies drawn from the MultiPV lines
  double sample_temperature_cp = 100;  // softmax temperature of that draw
  float policy_temperature_cp = 60;    // soft policy target from the MultiPV scores
  int max_plies = 300;                 // then adjudicated by the last score
  int adjudicate_cp = 300;             // |score| above this at max_plies decides the game
};

// Positions already written by this run (zobrist key and repetition count): a position met
// again (the start position in every game, common early lines) is not labelled twice.
class SeenPositions {
 public:
  bool first_time(std::uint64_t key);  // thread-safe
  void mark(std::uint64_t key);        // seen before this run (not a duplicate of it)
  std::uint64_t duplicates() const { return duplicates_; }

 private:
  std::mutex mutex_;
  std::unordered_set<std::uint64_t> seen_;
  std::atomic<std::uint64_t> duplicates_{0};
};

// The key a position is seen under: its zobrist key and how often it occurred before.
inline std::uint64_t seen_key(std::uint64_t position_key, int repetitions) {
  return position_key ^ (std::uint64_t(repetitions) * 0x9E3779B97F4A7C15ull);
}

struct PlayedGame {
  std::vector<Record> records;  // results filled in
  GameOutcome outcome;
  bool adjudicated = false;
  int plies = 0;
};

// Which move a labelled game goes on with at `ply`, given the teacher's answer there. A null
// move ends a recorded game whose moves have run out (LabelledGameStart::recorded_result).
using MoveChooser = std::function<Move(const Game& game, const TeacherAnswer& answer, int ply)>;

// Where a labelled game begins: a new game from the start position, or a recorded game from its
// opening, which ends with the result it had when its moves run out (a game its match ended by
// adjudication or resignation keeps that result).
struct LabelledGameStart {
  Game game{Position()};
  GameResult recorded_result = GameResult::kOngoing;
};

// Plays one game whose every position `teacher` labels, going on with `choose`'s moves;
// `flags` are added to every record. Returns early with no records when `stop` is set. At
// options.max_plies the game is adjudicated by the teacher's last score.
PlayedGame play_labelled_game(UciTeacher& teacher, std::uint64_t game_id,
                              const GameOptions& options, SeenPositions& seen,
                              const std::atomic<bool>& stop, const MoveChooser& choose,
                              std::uint16_t flags = 0, const LabelledGameStart& start = {});

// Plays one teacher game. Returns early with no records when `stop` is set (the game in flight is
// lost, nothing half-labelled is returned). Throws TeacherError from the teacher.
PlayedGame play_teacher_game(UciTeacher& teacher, std::uint64_t game_id, std::mt19937_64& rng,
                             const GameOptions& options, SeenPositions& seen,
                             const std::atomic<bool>& stop);

// The index drawn from scores (centipawns, mates as encode_score) with a softmax temperature.
std::size_t sample_by_score(const std::vector<std::int32_t>& scores, double temperature_cp,
                            std::mt19937_64& rng);

}  // namespace zh::datagen
