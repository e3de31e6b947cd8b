#pragma once
// The PGN lichess would export for a finished (or ongoing) emulated game.

#include <string>

#include "tests/emulator/emu_game.h"

namespace zh::emulator {

// `date` is "YYYY.MM.DD".
std::string game_pgn(const EmuGame& game, const std::string& date);
// "1-0", "0-1", "1/2-1/2" or "*".
std::string result_text(const EmuGame& game);

}  // namespace zh::emulator
