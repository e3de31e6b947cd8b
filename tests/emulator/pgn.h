#pragma once
// The PGN lichess would export for a finished (or ongoing) emulated game.

#include <string>
#include <vector>

#include "tests/emulator/emu_game.h"

namespace zh::emulator {

// `date` is "YYYY.MM.DD". The last `hidden_plies` moves are left out (the public export of an
// ongoing game).
std::string game_pgn(const EmuGame& game, const std::string& date, int hidden_plies = 0);
// The game's moves in SAN, without the last `hidden_plies`.
std::vector<std::string> san_moves(const EmuGame& game, int hidden_plies = 0);
// "1-0", "0-1", "1/2-1/2" or "*".
std::string result_text(const EmuGame& game);

}  // namespace zh::emulator
