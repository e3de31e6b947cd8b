#include "tests/emulator/game_status.h"

#include <array>
#include <utility>

namespace zh::emulator {
namespace {

struct StatusRow {
  GameStatus status;
  std::string_view name;
  int id;
};

constexpr std::array<StatusRow, 10> kStatuses{{
    {GameStatus::kCreated, "created", 10},
    {GameStatus::kStarted, "started", 20},
    {GameStatus::kAborted, "aborted", 25},
    {GameStatus::kMate, "mate", 30},
    {GameStatus::kResign, "resign", 31},
    {GameStatus::kStalemate, "stalemate", 32},
    {GameStatus::kTimeout, "timeout", 33},
    {GameStatus::kDraw, "draw", 34},
    {GameStatus::kOutOfTime, "outoftime", 35},
    {GameStatus::kNoStart, "noStart", 37},
}};

const StatusRow& row(GameStatus s) {
  for (const auto& r : kStatuses)
    if (r.status == s) return r;
  return kStatuses[0];
}

}  // namespace

std::string_view status_name(GameStatus s) { return row(s).name; }
int status_id(GameStatus s) { return row(s).id; }

GameStatus status_from_name(std::string_view name) {
  for (const auto& r : kStatuses)
    if (r.name == name) return r.status;
  return GameStatus::kCreated;
}

}  // namespace zh::emulator
