#pragma once
// The fixture of every end-to-end test: a fresh directory under the build tree for the run's
// files (configs, logs, PGNs), the emulator, the bot processes, and a teardown that stops them
// all (also after a failed assertion), greps every file the bot wrote for the token, and keeps
// the directory (printing the logs' tails) only when the test failed.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tests/e2e/bot_runner.h"
#include "tests/e2e/emulator.h"

namespace zh::e2e {

class E2eTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  Emulator& start_emulator(std::vector<std::string> extra_args = {});
  // Test defaults (see BotSettings) with the PGN directory inside the run directory.
  BotSettings settings() const;
  BotProcess& start_bot(const BotSettings& s, const std::string& token = kToken,
                        const std::map<std::string, std::string>& extra_env = {},
                        const std::vector<std::string>& env_unset = {});
  // start_bot, then a wait until its event stream is connected, so that a challenge sent next
  // is answered within accepted_game's wait: a sanitizer build on a loaded machine can take
  // longer than that to start (60 s, as for every start-up here).
  BotProcess& start_connected_bot(const BotSettings& s);
  // Stops a bot: SIGTERM, a second SIGTERM (exit at once) and SIGKILL if it lingers.
  static ExitStatus stop_now(BotProcess& bot);

  // Waits until the bot has accepted the challenge; returns the game id (fails the test if not).
  std::string accepted_game(const std::string& challenge_id,
                            std::chrono::milliseconds timeout = 15s);
  // Waits until the challenge is declined or accepted; returns lichess's decline reason key, or
  // a text saying it was not declined (which no reason key equals).
  std::string declined_reason(const std::string& challenge_id);
  // Waits for the end of the game and checks what every finished game must satisfy: no move
  // rejected or sent twice, no loss on time, the emulator's PGN and the bot's own PGN file
  // parse with the project's SAN parser and hold exactly the moves played.
  Json expect_clean_finish(const std::string& game_id, std::chrono::milliseconds timeout);
  void expect_bot_pgn(const std::string& game_id, const Json& game);

  // The bot's think time for each of its moves: the time from the previous ply (or from the
  // game start for a first move as White) to its move, from the emulator's ply times.
  static std::vector<long> bot_move_times_ms(const Json& game);

  std::filesystem::path dir_;
  std::unique_ptr<Emulator> emu_;
  std::vector<std::unique_ptr<BotProcess>> bots_;
};

}  // namespace zh::e2e
