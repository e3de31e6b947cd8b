#include "engine/datagen/labelling.h"

#include <vector>

#include "engine/nn/encoder.h"
#include "engine/nn/policy_map.h"

namespace zh::datagen {

Record make_record(const Position& pos, int repetitions, int ply, std::uint64_t game_id,
                   std::span<const TeacherLine> lines, float policy_temperature_cp) {
  Record record{};
  float planes[kInputSize];
  encode_position(EvalInput{pos, repetitions}, planes);
  pack_planes(planes, record);
  std::vector<ScoredMove> scored;
  for (const TeacherLine& line : lines) {
    const int index = policy_index(line.move, pos.side_to_move());
    if (index < 0) throw std::logic_error("teacher move has no policy index");
    scored.push_back({index, encode_score(line.cp, line.mate)});
  }
  set_policy(scored, policy_temperature_cp, record);
  record.score = scored.front().score;
  record.ply = std::uint16_t(std::min(ply, 65535));
  record.game_id = game_id;
  set_fen(pos.fen(), record);
  return record;
}

void set_result(Record& record, Color mover, GameResult result) {
  switch (result) {
    case GameResult::kWhiteWins:
      record.result = mover == kWhite ? kWin : kLoss;
      break;
    case GameResult::kBlackWins:
      record.result = mover == kBlack ? kWin : kLoss;
      break;
    default:
      record.result = kDraw;
      break;
  }
}

std::uint64_t game_id_from_text(std::string_view text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace zh::datagen
