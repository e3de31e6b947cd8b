#pragma once
// From a position and the teacher's lines to a training record: the engine's encoder makes
// the planes, the policy map turns the teacher's moves into indices.

#include <cstdint>
#include <span>
#include <string_view>

#include "engine/chess/game.h"
#include "engine/datagen/record_format.h"
#include "engine/datagen/uci_teacher.h"

namespace zh::datagen {

// `lines` best first (lines[0] = the teacher's move); `input` is the position with its
// repetitions and last moves (the record holds the planes of every input format).
Record make_record(const EvalInput& input, int ply, std::uint64_t game_id,
                   std::span<const TeacherLine> lines, float policy_temperature_cp);

// Sets the record's planes and last moves from `input` (the encoder's format 2.0, whose first
// 34 planes are format 1.0's).
void set_input(const EvalInput& input, Record& record);

// A self-play record: the policy target is the search's visit distribution over the root
// moves (the most visited kPolicySlots of them, renormalised; slot 0 = the most visited), the
// score is `q` (the searched value for the side to move) in centipawns.
struct VisitedMove {
  Move move;
  std::uint32_t visits;
};
Record make_visit_record(const EvalInput& input, int ply, std::uint64_t game_id,
                         std::span<const VisitedMove> moves, float q);

// Sets record.result for the side to move `mover` from the game's result (white's view).
void set_result(Record& record, Color mover, GameResult result);

// "1-0", "0-1" or "1/2-1/2"; kOngoing for any other text.
GameResult parse_result(std::string_view text);

// A 64-bit game id from a text id (FNV-1a), for imported games.
std::uint64_t game_id_from_text(std::string_view text);

}  // namespace zh::datagen
