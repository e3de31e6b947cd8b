#pragma once
// Own-game positions (DAgger): zhbot plays one side, or both, and the teacher labels every
// position reached exactly as in a teacher game (engine/datagen/teacher_game.h). The states a
// network learns from are then the ones its own play leads to, not only those of the teacher
// playing itself. The opponent is zhbot itself or Fairy-Stockfish at a Skill Level from a
// list, cycled by game; zhbot's colour alternates with each pass over the list.

#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/datagen/teacher_game.h"
#include "engine/datagen/uci_teacher.h"
#include "engine/engine.h"

namespace zh::datagen {

struct OwnGameOptions {
  bool enabled = false;
  // Engine options NAME=VALUE for zhbot (backend, model, ...; default: the shipped network).
  std::vector<std::string> engine_options;
  std::int64_t nodes = 400;     // zhbot's playouts per move
  int sampled_moves = 8;        // zhbot's first N moves are drawn from its visits ...
  double temperature = 1.0;     // ... with this temperature
  bool dirichlet_noise = true;  // root noise on every zhbot move
  // Fairy-Stockfish Skill Levels (0..20) the opponent cycles through; empty: zhbot plays
  // itself.
  std::vector<int> skill_levels;
  std::int64_t opponent_nodes = 3000;  // the opponent's nodes per move
};

// Throws std::invalid_argument naming the option for values that cannot work.
void check_own_game_options(const OwnGameOptions& options);

// The shared evaluator every worker's zhbot uses (one network, one inference service).
LoadedEvaluator load_own_game_evaluator(const OwnGameOptions& options);

// One worker's players: its zhbot and, against Fairy-Stockfish, one opponent process per
// Skill Level (a process keeps its level; the teacher's own settings never change).
class OwnGamePlayers {
 public:
  OwnGamePlayers(const OwnGameOptions& options, const TeacherConfig& teacher,
                 const LoadedEvaluator& evaluator);
  // The opponent of game `number` (null: zhbot plays itself) and whether zhbot is white.
  UciTeacher* opponent_of(std::int64_t number);
  bool zhbot_is_white(std::int64_t number) const;
  int skill_of(std::int64_t number) const;
  // zhbot's move in game.position(); `seed` makes its noise and sampling repeatable.
  Move zhbot_move(const Game& game, std::uint64_t seed);
  void new_game();
  void restart_opponents();

 private:
  const OwnGameOptions& options_;
  Engine engine_;
  std::vector<std::unique_ptr<UciTeacher>> opponents_;
};

// Plays one own game, labelled by `teacher`. Records carry kFlagOwnGame. Returns early with no
// records when `stop` is set; throws TeacherError from the teacher or the opponent.
PlayedGame play_own_game(UciTeacher& teacher, OwnGamePlayers& players, std::int64_t number,
                         std::uint64_t game_id, std::mt19937_64& rng, const GameOptions& options,
                         SeenPositions& seen, const std::atomic<bool>& stop);

}  // namespace zh::datagen
