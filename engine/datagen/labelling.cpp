#include "engine/datagen/labelling.h"

#include <algorithm>
#include <vector>

#include "engine/nn/encoder.h"
#include "engine/nn/policy_map.h"
#include "engine/search/formulas.h"

namespace zh::datagen {

void set_input(const EvalInput& input, Record& record) {
  float planes[input_size(InputFormat::kV2)];
  encode_position(input, planes, true, InputFormat::kV2);
  pack_planes(planes, record);
  record.last_moves[0] = input.last_moves[0].raw();
  record.last_moves[1] = input.last_moves[1].raw();
}

Record make_record(const EvalInput& input, int ply, std::uint64_t game_id,
                   std::span<const TeacherLine> lines, float policy_temperature_cp) {
  const Position& pos = input.position;
  Record record{};
  set_input(input, record);
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

Record make_visit_record(const EvalInput& input, int ply, std::uint64_t game_id,
                         std::span<const VisitedMove> moves, float q) {
  const Position& pos = input.position;
  Record record{};
  set_input(input, record);
  std::vector<VisitedMove> best(moves.begin(), moves.end());
  std::stable_sort(best.begin(), best.end(),
                   [](const VisitedMove& a, const VisitedMove& b) { return a.visits > b.visits; });
  if (best.size() > std::size_t(kPolicySlots)) best.resize(kPolicySlots);
  double total = 0;
  for (const VisitedMove& m : best) total += m.visits;
  if (best.empty() || total <= 0) throw std::logic_error("a visit record needs visited moves");
  for (std::size_t i = 0; i < best.size(); ++i) {
    const int index = policy_index(best[i].move, pos.side_to_move());
    if (index < 0) throw std::logic_error("searched move has no policy index");
    record.policy_index[i] = std::uint16_t(index);
    record.policy_prob[i] = float(best[i].visits / total);
    record.pv_score[i] = 0;
  }
  record.pv_count = std::uint8_t(best.size());
  record.score = encode_score(formulas::value_to_centipawns(q), 0);
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

GameResult parse_result(std::string_view text) {
  if (text == "1-0") return GameResult::kWhiteWins;
  if (text == "0-1") return GameResult::kBlackWins;
  if (text == "1/2-1/2") return GameResult::kDraw;
  return GameResult::kOngoing;
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
