#pragma once
// A game's board as the status page shows it: FEN with pockets, the last move, the last few
// moves in SAN.

#include "bot/status/status_model.h"
#include "engine/chess/game.h"

namespace zh::bot {

inline constexpr int kRecentPlies = 8;

// Replays the game from its start for the SAN of the last `recent` plies (cheap: called once a
// ply, on the game's own thread).
BoardView board_view(const Game& game, int recent = kRecentPlies);

}  // namespace zh::bot
