#pragma once
// The JSON shapes of the lichess Bot API (schemas in lichess-api/doc/specs/schemas):
// GameFullEvent, GameStateEvent, GameEventInfo (gameStart/gameFinish), ChallengeJson,
// UserExtended, the chatLine and opponentGone events.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/emulator/challenge.h"
#include "tests/emulator/emu_game.h"

namespace zh::emulator {

nlohmann::json variant_json(const std::string& key);
nlohmann::json game_state_json(const EmuGame& g, SteadyTime now);
nlohmann::json game_full_json(const EmuGame& g, SteadyTime now);
// GameEventInfo from the point of view of `me` (the bot's side).
nlohmann::json game_event_info_json(const EmuGame& g, SteadyTime now);
nlohmann::json challenge_json(const Challenge& c, bool with_direction);
// {"type":"challenge"|"challengeCanceled"|"challengeDeclined","challenge":{...},"compat":...}
nlohmann::json challenge_event_json(const Challenge& c, const std::string& type);
nlohmann::json chat_line_json(const ChatLine& line);
nlohmann::json opponent_gone_json(bool gone, int claim_win_in_seconds);
// The account (UserExtended subset a bot reads): id, username, title, perfs, count, ...
nlohmann::json account_json(const PlayerInfo& me, int games_played, std::int64_t created_at_ms);
// GameJson for GET /game/export/{id}: `san` is the (possibly delayed) SAN move list.
nlohmann::json game_export_json(const EmuGame& g, const std::vector<std::string>& san,
                                std::int64_t last_move_at_ms);
// A `User` line for GET /api/bot/online.
nlohmann::json online_bot_json(const PlayerInfo& bot);

}  // namespace zh::emulator
