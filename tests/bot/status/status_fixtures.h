#pragma once
// Status values with every field set, for the board, JSON and report tests.

#include "bot/status/status_board.h"

namespace zh::bot::test {

inline GameView sample_game(const std::string& id = "abcd1234") {
  GameView g;
  g.id = id;
  g.url = "https://lichess.org/" + id;
  g.color = "black";
  g.opponent = {"Rival", "GM", 2450};
  g.our_rating = 2012;
  g.rated = true;
  g.speed = "blitz";
  g.initial_ms = 180000;
  g.increment_ms = 2000;
  g.white_ms = 151000;
  g.black_ms = 163500;
  g.clocks_at_unix_ms = 1700000000000;
  // After 1. e4 d5 2. exd5 Qxd5 3. b4 ... with a promoted queen taken: pockets hold drops and
  // the pawn a promoted piece turns back into.
  g.board = {"r1b1kbnr/ppp1pppp/2n5/3q4/1P6/8/P1PP1PPP/RNBQKBNR/Ppp w KQkq - 0 4",
             "white",
             "P",
             "pp",
             "b8c6",
             {"e4", "d5", "exd5", "Qxd5", "b4", "Nc6"},
             6};
  g.thinking = true;
  g.eval = EvalPoint{6, -35, std::nullopt};
  g.nodes = 12000;
  g.nps = 41000;
  g.eval_history = {{2, 10, std::nullopt}, {4, -20, std::nullopt}, {6, -35, std::nullopt}};
  return g;
}

inline QueuedChallenge sample_queued() {
  return {"chal0001", {"Waiter", "", 1800}, "blitz", "180+2", true, 1700000000500};
}

inline DeclinedChallenge sample_decline() {
  return {"chal0002", {"Speedy", "BOT", 1900},    "15+0",
          "tooFast",  "15+0 is faster than 60 s", 1700000001000};
}

inline DeskView sample_desk() {
  DeskView d;
  d.queue = {sample_queued()};
  d.matchmaking.enabled = true;
  d.matchmaking.challenging = "OtherBot";
  d.matchmaking.challenge_clock = "180+2";
  d.matchmaking.next_seek_unix_ms = 1700000060000;
  d.matchmaking.bot_games_paused_until_unix_ms = 0;
  d.matchmaking.bot_games_24h = 7;
  d.matchmaking.declined_by = {{"shybot", "later", 1700003600000}};
  return d;
}

}  // namespace zh::bot::test
