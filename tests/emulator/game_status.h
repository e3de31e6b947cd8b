#pragma once
// Lichess game status names and ids (spec GameStatusName / GameStatusId).

#include <string_view>

namespace zh::emulator {

enum class GameStatus {
  kCreated,
  kStarted,
  kAborted,
  kMate,
  kResign,
  kStalemate,
  kTimeout,  // the opponent left and the win was claimed
  kDraw,
  kOutOfTime,
  kNoStart,  // a player did not make the first move in time
};

std::string_view status_name(GameStatus s);
int status_id(GameStatus s);
// Inverse of status_name; kCreated for unknown text.
GameStatus status_from_name(std::string_view name);
inline bool is_finished(GameStatus s) {
  return s != GameStatus::kCreated && s != GameStatus::kStarted;
}

}  // namespace zh::emulator
