// The challenge policy as lichess sees it (issue 6 §2.2) and the abort of a game the opponent
// never starts (§2.8).
#include "tests/e2e/e2e_fixture.h"

namespace zh::e2e {
namespace {

using E2ePolicy = E2eTest;

TEST_F(E2ePolicy, EachBadChallengeIsDeclinedWithItsReasonAndAGoodOneIsAccepted) {
  start_emulator();
  BotSettings s = settings();
  s.set("challenge", "max_concurrent_games", "1")
      .set("challenge", "accept_rated", "false")
      .set("challenge", "accept_bots", "false")
      .set("challenge", "queue_size", "0")  // no waiting room: a busy bot says later
      .set("challenge", "min_base_s", "60")
      .set("game", "abort_time_s", "60");
  start_connected_bot(s);
  const Json slow_human = {
      {"type", "engine"}, {"skill", 0}, {"movetime_ms", 30}, {"delay_ms", 500}};

  Json atomic = challenge_spec("Vera", false, slow_human, 180, 0);
  atomic["variant"] = "atomic";
  const std::string wrong_variant = emu_->challenge(atomic);
  const std::string too_fast = emu_->challenge(challenge_spec("Fred", false, slow_human, 30, 0));
  Json rated_spec = challenge_spec("Rita", false, slow_human, 180, 0);
  rated_spec["rated"] = true;
  const std::string rated = emu_->challenge(rated_spec);
  const std::string bot = emu_->challenge(challenge_spec("Robo", true, slow_human, 180, 0));

  EXPECT_EQ(declined_reason(wrong_variant), "variant");
  EXPECT_EQ(declined_reason(too_fast), "toofast");
  EXPECT_EQ(declined_reason(rated), "casual");
  EXPECT_EQ(declined_reason(bot), "nobot");

  const std::string good =
      accepted_game(emu_->challenge(challenge_spec("Gus", false, slow_human, 180, 0)));
  ASSERT_FALSE(good.empty());
  // The one game slot is taken: the next good challenge is for later.
  const std::string full = emu_->challenge(challenge_spec("Hal", false, slow_human, 180, 0));
  EXPECT_EQ(declined_reason(full), "later");
  EXPECT_EQ(emu_->get("/admin/games").size(), 1u) << "a declined challenge became a game";
  EXPECT_EQ(emu_->game(good).value("status", ""), "started");
}

TEST_F(E2ePolicy, AGameTheOpponentNeverStartsIsAbortedAfterAbortTime) {
  start_emulator();
  BotSettings s = settings();
  s.set("game", "abort_time_s", "5");
  start_connected_bot(s);
  // As White the bot moves and waits for a reply that never comes; as Black it waits for a
  // first move. Both are aborted by the bot after abort_time (lichess would wait 30 s).
  Json as_white = challenge_spec("Ida", false, {{"type", "idle"}}, 180, 0);
  as_white["color"] = "black";
  Json as_black = challenge_spec("Joe", false, {{"type", "idle"}}, 180, 0);
  as_black["color"] = "white";
  const std::string g1 = accepted_game(emu_->challenge(as_white));
  const std::string g2 = accepted_game(emu_->challenge(as_black));
  ASSERT_FALSE(g1.empty());
  ASSERT_FALSE(g2.empty());
  for (const auto& id : {g1, g2}) {
    // A generous wait for the event (the abort), not a bound on how fast it comes.
    const Json g = emu_->wait_finished(id, 120s);
    EXPECT_EQ(g.value("status", ""), "aborted") << g.dump();
  }
  EXPECT_EQ(emu_->game(g1).value("plies", -1), 1);  // the bot's own first move only
  EXPECT_EQ(emu_->game(g2).value("plies", -1), 0);
  // Not before abort_time: the abort came at least 5 s after the accept.
  const Json log = emu_->get("/admin/log");
  std::int64_t accepted_at = -1;
  std::vector<std::int64_t> aborts;
  for (const auto& r : log) {
    if (r.value("endpoint", "") == "challenge_accept" && accepted_at < 0)
      accepted_at = r.value("at_ms", std::int64_t(0));
    if (r.value("endpoint", "") == "abort" && r.value("status", 0) == 200)
      aborts.push_back(r.value("at_ms", std::int64_t(0)));
  }
  ASSERT_EQ(aborts.size(), 2u) << log.dump();
  for (auto at : aborts) EXPECT_GE(at - accepted_at, 4500) << "aborted before abort_time";
}

}  // namespace
}  // namespace zh::e2e
