#include "tests/e2e/e2e_fixture.h"

#include <algorithm>
#include <iostream>
#include <sstream>

#include "engine/chess/notation.h"
#include "tests/e2e/pgn_check.h"

namespace zh::e2e {
namespace {

std::string tail(const std::string& text, int lines) {
  std::size_t at = text.size();
  for (int n = 0; n <= lines && at != std::string::npos && at > 0; ++n)
    at = text.rfind('\n', at - 1);
  return at == std::string::npos ? text : text.substr(at + 1);
}

}  // namespace

void E2eTest::SetUp() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  // Relative to the test's working directory, the build tree; kept when the test fails.
  dir_ = std::filesystem::absolute("e2e-runs") /
         (std::string(info->test_suite_name()) + "." + info->name());
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
}

void E2eTest::TearDown() {
  for (auto& bot : bots_) stop_now(*bot);
  if (emu_) emu_->process().stop();
  // Test 12 of the issue, for every test: the token appears in nothing the bot wrote.
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir_)) {
    if (!entry.is_regular_file()) continue;
    if (entry.path().filename().string().rfind("emulator", 0) == 0) continue;  // the server's
    const std::string text = read_text(entry.path());
    EXPECT_EQ(text.find(kToken), std::string::npos)
        << "the API token appears in " << entry.path().filename();
  }
  if (HasFailure()) {
    for (const auto& bot : bots_)
      std::cerr << "--- tail of " << bot->log_path() << "\n" << tail(bot->log(), 60) << "\n";
    if (emu_) std::cerr << "--- kept " << dir_ << "\n";
  } else {
    std::filesystem::remove_all(dir_);
  }
}

Emulator& E2eTest::start_emulator(std::vector<std::string> extra_args) {
  emu_ = std::make_unique<Emulator>(dir_, std::move(extra_args));
  return *emu_;
}

BotSettings E2eTest::settings() const {
  BotSettings s(emu_->base_url());
  s.set_quoted("game", "pgn_dir", (dir_ / "pgn").string());
  s.set_quoted("operations", "state_dir", (dir_ / "state").string());
  return s;
}

BotProcess& E2eTest::start_bot(const BotSettings& s, const std::string& token,
                               const std::map<std::string, std::string>& extra_env,
                               const std::vector<std::string>& env_unset) {
  const std::string name = bots_.empty() ? "zhbot" : "zhbot-" + std::to_string(bots_.size() + 1);
  bots_.push_back(std::make_unique<BotProcess>(dir_, name, s, token, extra_env, env_unset));
  return *bots_.back();
}

BotProcess& E2eTest::start_connected_bot(const BotSettings& s) {
  BotProcess& bot = start_bot(s);
  EXPECT_TRUE(bot.wait_log("event stream connected", 60s)) << bot.log();
  return bot;
}

ExitStatus E2eTest::stop_now(BotProcess& bot) { return bot.terminate(300ms); }

std::string E2eTest::accepted_game(const std::string& challenge_id,
                                   std::chrono::milliseconds timeout) {
  const std::string id = emu_->wait_accepted(challenge_id, timeout);
  EXPECT_FALSE(id.empty()) << "challenge " << challenge_id
                           << " was not accepted: " << emu_->challenge_state(challenge_id).dump();
  return id;
}

std::string E2eTest::declined_reason(const std::string& challenge_id) {
  std::string reason;
  eventually(
      [&] {
        const Json c = emu_->challenge_state(challenge_id);
        if (c.value("status", "") == "declined") reason = c.value("declineReasonKey", "?");
        return !reason.empty() || c.value("status", "") == "accepted";
      },
      30s);
  return reason.empty() ? "(not declined: " + emu_->challenge_state(challenge_id).dump() + ")"
                        : reason;
}

Json E2eTest::expect_clean_finish(const std::string& game_id, std::chrono::milliseconds timeout) {
  const Json g = emu_->wait_finished(game_id, timeout);
  EXPECT_TRUE(game_over(g)) << "game " << game_id << " did not finish: " << g.dump();
  EXPECT_EQ(g.value("rejected_moves", -1), 0) << g.dump();
  EXPECT_EQ(g.value("duplicate_moves", -1), 0) << g.dump();
  const bool lost_on_time = g.value("status", "") == "outoftime" && g["winner"].is_string() &&
                            g["winner"] != g["bot_color"];
  EXPECT_FALSE(lost_on_time) << "the bot lost on time: " << g.dump();
  // The server's record of the game reads back move for move.
  try {
    const ParsedPgn pgn = parse_pgn(emu_->pgn(game_id));
    EXPECT_TRUE(pgn.game.moves() == replay_uci(g.value("moves", "")).moves());
    EXPECT_EQ(pgn.result, g.value("result", "?"));
  } catch (const std::exception& e) {
    ADD_FAILURE() << "the emulator's PGN of " << game_id << " does not parse: " << e.what();
  }
  if (game_over(g) && g.value("status", "") != "aborted") expect_bot_pgn(game_id, g);
  return g;
}

void E2eTest::expect_bot_pgn(const std::string& game_id, const Json& game) {
  const auto path = dir_ / "pgn" / (game_id + ".pgn");
  // Written when the bot sees the end, which may come a moment after the server's.
  ASSERT_TRUE(eventually([&] { return std::filesystem::exists(path); }, 5s))
      << "the bot wrote no PGN for " << game_id;
  try {
    const ParsedPgn pgn = parse_pgn(read_text(path));
    EXPECT_TRUE(pgn.game.moves() == replay_uci(game.value("moves", "")).moves())
        << "the bot's PGN moves differ from the game's";
    EXPECT_EQ(pgn.tags.count("Variant") ? pgn.tags.at("Variant") : "", "Crazyhouse");
    EXPECT_EQ(pgn.result, game.value("result", "?"));
    EXPECT_EQ(pgn.tags.count("Result") ? pgn.tags.at("Result") : "", pgn.result);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "the bot's PGN " << path.filename() << " does not parse: " << e.what();
  }
}

std::vector<long> E2eTest::bot_move_times_ms(const Json& game) {
  std::vector<long> out;
  const auto& at = game.at("ply_at_ms");
  const int first = game.value("bot_color", "white") == "white" ? 0 : 1;
  for (std::size_t ply = std::size_t(first); ply < at.size(); ply += 2)
    if (ply > 0) out.push_back(long(at[ply].get<std::int64_t>() - at[ply - 1].get<std::int64_t>()));
  return out;
}

}  // namespace zh::e2e
