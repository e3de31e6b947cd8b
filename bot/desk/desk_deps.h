#pragma once
// What the challenge desk and its seeker use: the lichess client, the clock, the counters, the
// games running and the ledger. The daemon owns them all; they outlive the desk.

#include "bot/ledger/game_ledger.h"
#include "bot/ledger/session_table.h"
#include "bot/lichess/lichess_client.h"
#include "bot/metrics/metrics.h"
#include "bot/status/status_board.h"

namespace zh::bot {

struct DeskDeps {
  LichessClient* client = nullptr;
  Clock* clock = nullptr;
  Metrics* metrics = nullptr;
  SessionTable* sessions = nullptr;
  GameLedger* ledger = nullptr;
  RandomSource random;
  StatusBoard* status = nullptr;  // the status page's (optional)
};

}  // namespace zh::bot
