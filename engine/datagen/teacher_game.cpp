#include "engine/datagen/teacher_game.h"

#include <algorithm>
#include <cmath>

#include "engine/datagen/labelling.h"

namespace zh::datagen {

bool SeenPositions::first_time(std::uint64_t key) {
  std::lock_guard lock(mutex_);
  if (seen_.insert(key).second) return true;
  ++duplicates_;
  return false;
}

void SeenPositions::mark(std::uint64_t key) {
  std::lock_guard lock(mutex_);
  seen_.insert(key);
}

std::size_t sample_by_score(const std::vector<std::int32_t>& scores, double temperature_cp,
                            std::mt19937_64& rng) {
  if (scores.size() <= 1 || temperature_cp <= 0) return 0;
  std::vector<double> weights;
  const double top = std::clamp(scores[0], -3000, 3000);
  for (std::int32_t s : scores)
    weights.push_back(std::exp((std::clamp(s, -3000, 3000) - top) / temperature_cp));
  std::discrete_distribution<std::size_t> pick(weights.begin(), weights.end());
  return pick(rng);
}

PlayedGame play_labelled_game(UciTeacher& teacher, std::uint64_t game_id,
                              const GameOptions& options, SeenPositions& seen,
                              const std::atomic<bool>& stop, const MoveChooser& choose,
                              std::uint16_t flags, const LabelledGameStart& start) {
  teacher.new_game();
  PlayedGame played;
  Game game = start.game;
  // A record's ply counts from the game's first move, also when it began from an opening.
  const Position& first = game.position();
  const int first_ply = 2 * (first.fullmove_number() - 1) + (first.side_to_move() == kBlack);
  std::vector<Color> movers;
  int last_score = 0;
  for (int ply = 0;; ++ply) {
    if (stop.load()) return {};
    played.outcome = game.outcome();
    if (played.outcome.result != GameResult::kOngoing) break;
    if (ply >= options.max_plies) {
      // Adjudicated by the teacher's last score, for the side to move.
      played.adjudicated = true;
      const Color stm = game.position().side_to_move();
      if (std::abs(last_score) > options.adjudicate_cp)
        played.outcome.result =
            (last_score > 0) == (stm == kWhite) ? GameResult::kWhiteWins : GameResult::kBlackWins;
      else
        played.outcome.result = GameResult::kDraw;
      break;
    }
    const Position& pos = game.position();
    const TeacherAnswer answer = teacher.search(game);
    if (answer.best.is_null()) throw TeacherError("teacher found no move where our rules do");
    last_score = encode_score(answer.lines[0].cp, answer.lines[0].mate);
    const Move played_move = choose(game, answer, ply);
    if (stop.load()) return {};

    const int repetitions = game.repetitions();
    if (seen.first_time(seen_key(pos.key(), repetitions))) {
      const EvalInput input{pos, repetitions, last_moves_of(game.moves())};
      Record r =
          make_record(input, first_ply + ply, game_id, answer.lines, options.policy_temperature_cp);
      r.flags |= flags;
      if (!played_move.is_null() && played_move != answer.best) r.flags |= kFlagMoveNotTeacher;
      played.records.push_back(r);
      movers.push_back(pos.side_to_move());
    }
    if (played_move.is_null()) {  // a recorded game's last position
      played.outcome.result = start.recorded_result;
      break;
    }
    game.play(played_move);
    played.plies = ply + 1;
  }
  for (std::size_t i = 0; i < played.records.size(); ++i) {
    set_result(played.records[i], movers[i], played.outcome.result);
    if (played.adjudicated) played.records[i].flags |= kFlagAdjudicated;
  }
  return played;
}

PlayedGame play_teacher_game(UciTeacher& teacher, std::uint64_t game_id, std::mt19937_64& rng,
                             const GameOptions& options, SeenPositions& seen,
                             const std::atomic<bool>& stop) {
  const int random_plies =
      std::uniform_int_distribution<int>(0, std::max(0, options.random_plies_max))(rng);
  auto choose = [&](const Game& game, const TeacherAnswer& answer, int ply) {
    if (ply < random_plies) {
      const MoveList legal = game.position().legal_moves();
      return legal[std::uniform_int_distribution<int>(0, legal.count - 1)(rng)];
    }
    if (ply < random_plies + options.sample_plies) {
      std::vector<std::int32_t> scores;
      for (const auto& l : answer.lines) scores.push_back(encode_score(l.cp, l.mate));
      return answer.lines[sample_by_score(scores, options.sample_temperature_cp, rng)].move;
    }
    return answer.best;
  };
  return play_labelled_game(teacher, game_id, options, seen, stop, choose);
}

}  // namespace zh::datagen
