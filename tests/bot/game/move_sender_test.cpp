// The move sender's rules: each move sent once per ply, never given up while the game runs,
// sent again only while the board still shows the same ply, 429 pauses respected.
#include "bot/game/move_sender.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>

#include "engine/chess/notation.h"
#include "tests/bot/support/loopback_client.h"
#include "tests/bot/support/test_server.h"
#include "tests/support/fake_clock.h"

namespace zh::bot {
namespace {

class MoveSenderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_.server().Post(R"(/api/bot/game/abcdefgh/move/(.+))", [this](const httplib::Request& req,
                                                                        httplib::Response& res) {
      std::lock_guard lock(mutex_);
      posts_.push_back(std::string(req.matches[1]) +
                       (req.has_param("offeringDraw")
                            ? "?offeringDraw=" + req.get_param_value("offeringDraw")
                            : ""));
      res.status = statuses_.empty() ? 200 : statuses_.front();
      if (!statuses_.empty()) statuses_.erase(statuses_.begin());
      res.set_content(res.status == 200 ? R"({"ok":true})" : R"({"error":"no"})",
                      "application/json");
    });
    server_.start();
    lichess_ = std::make_unique<test::LoopbackClient>(server_, clock_);
    sender_ = std::make_unique<MoveSender>("abcdefgh", *lichess_->client, clock_,
                                           spdlog::default_logger()->clone("game:abcdefgh"));
  }

  Move move(const std::string& uci) { return parse_uci(Position(), uci); }
  int sent(const std::string& uci) {
    std::lock_guard lock(mutex_);
    return int(std::count(posts_.begin(), posts_.end(), uci));
  }

  test::TestServer server_;
  zh::test::FakeClock clock_;
  std::unique_ptr<test::LoopbackClient> lichess_;
  std::unique_ptr<MoveSender> sender_;
  std::mutex mutex_;
  std::vector<std::string> posts_;
  std::vector<int> statuses_;
};

using Outcome = MoveSender::Outcome;

TEST_F(MoveSenderTest, SendsAMoveOncePerPlyInLichessCastlingForm) {
  const auto r = sender_->send(move("e2e4"), 0);
  EXPECT_EQ(r.outcome, Outcome::kSent);
  EXPECT_EQ(r.uci, "e2e4");
  EXPECT_EQ(sender_->send(move("d2d4"), 0).outcome, Outcome::kAlreadySent);
  EXPECT_EQ(sent("d2d4"), 0);
  EXPECT_TRUE(sender_->sent_for(0));
  EXPECT_FALSE(sender_->may_send_for(0));
  EXPECT_TRUE(sender_->may_send_for(2));
  EXPECT_EQ(sender_->moves_sent(), 1);
  // King-to-rook castling on the wire (lichess accepts both; this is its own form).
  const Position castle = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R[] w KQkq - 0 1");
  EXPECT_EQ(sender_->send(parse_uci(castle, "e1g1"), 2).uci, "e1h1");
}

TEST_F(MoveSenderTest, AnUnconfirmedMoveIsSentAgainOnlyWhileTheBoardShowsItsPly) {
  statuses_ = {502, 502, 502, 502, 502, 502, 502, 502, 200};  // a server in trouble for a while
  EXPECT_EQ(sender_->send(move("e2e4"), 0).outcome, Outcome::kWillRetry);
  EXPECT_FALSE(sender_->may_send_for(0));  // no second search while the retry is pending
  EXPECT_FALSE(sender_->tick(0, true));    // not due yet
  EXPECT_EQ(sent("e2e4"), 1);
  // Never given up: quick retries first (400 ms), then every 1.5 s until it lands.
  std::vector<Millis> delays;
  for (int i = 0; i < 20 && sender_->moves_sent() == 0; ++i) {
    const TimePoint before = clock_.now();
    std::optional<MoveSender::Result> r;
    while (!(r = sender_->tick(0, true))) clock_.advance(Millis(100));
    delays.push_back(std::chrono::duration_cast<Millis>(clock_.now() - before));
  }
  EXPECT_EQ(sender_->moves_sent(), 1);
  EXPECT_EQ(sent("e2e4"), 9);
  ASSERT_EQ(delays.size(), 8u);
  EXPECT_EQ(delays[0], Millis(400));
  EXPECT_EQ(delays[1], Millis(400));
  EXPECT_EQ(delays[2], Millis(1500));
  EXPECT_EQ(delays[7], Millis(1500));
  EXPECT_FALSE(sender_->retry_pending());
}

TEST_F(MoveSenderTest, ADrawOfferGoesWithItsMoveAndWithItsRetries) {
  statuses_ = {502, 200};
  EXPECT_EQ(sender_->send(move("e2e4"), 0, true).outcome, Outcome::kWillRetry);
  std::optional<MoveSender::Result> r;
  while (!(r = sender_->tick(0, true))) clock_.advance(Millis(100));
  EXPECT_EQ(r->outcome, Outcome::kSent);
  EXPECT_EQ(sent("e2e4?offeringDraw=true"), 2);
  EXPECT_EQ(sender_->send(move("d2d4"), 2).outcome, Outcome::kSent);  // parsed from the start
  EXPECT_EQ(sent("d2d4"), 1);                                         // no offer unless asked
}

TEST_F(MoveSenderTest, AMoveThatLandedIsNotSentAgain) {
  statuses_ = {504};
  EXPECT_EQ(sender_->send(move("e2e4"), 0).outcome, Outcome::kWillRetry);
  sender_->board_changed(1);  // the stream shows it: it had landed
  clock_.advance(Millis(2000));
  EXPECT_FALSE(sender_->tick(1, false));
  EXPECT_EQ(sent("e2e4"), 1);
  EXPECT_FALSE(sender_->retry_pending());
}

TEST_F(MoveSenderTest, ARetryForAChangedPositionIsDropped) {
  statuses_ = {502};
  sender_->send(move("e2e4"), 0);
  clock_.advance(Millis(500));
  EXPECT_FALSE(sender_->tick(0, false));  // e.g. a takeback or a new game state
  EXPECT_EQ(sent("e2e4"), 1);
  EXPECT_FALSE(sender_->retry_pending());
}

TEST_F(MoveSenderTest, RateLimitedMoveWaitsOutThePauseThenGoesAgain) {
  statuses_ = {429};  // without a ratelimit body: lichess's one minute
  EXPECT_EQ(sender_->send(move("e2e4"), 0).outcome, Outcome::kWillRetry);
  clock_.advance(Millis(59000));
  EXPECT_FALSE(sender_->tick(0, true));  // hammering would only extend the ban
  EXPECT_EQ(sent("e2e4"), 1);
  clock_.advance(Millis(1001));
  const auto r = sender_->tick(0, true);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->outcome, Outcome::kSent);
  EXPECT_EQ(sent("e2e4"), 2);
}

TEST_F(MoveSenderTest, RefusedMovesAreNeverResentAndStopTheRethinkingAfterTwo) {
  statuses_ = {400, 400};
  auto r = sender_->send(move("e2e4"), 0);
  EXPECT_EQ(r.outcome, Outcome::kRefused);
  EXPECT_TRUE(r.rethink);
  EXPECT_TRUE(sender_->may_send_for(0));  // a new search may find a move lichess takes
  clock_.advance(Millis(5000));
  EXPECT_FALSE(sender_->tick(0, true));
  r = sender_->send(move("d2d4"), 0);
  EXPECT_EQ(r.outcome, Outcome::kRefused);
  EXPECT_FALSE(r.rethink);
  EXPECT_FALSE(sender_->may_send_for(0));  // bounded: no endless loop of refused moves
  EXPECT_EQ(sent("e2e4") + sent("d2d4"), 2);
}

TEST_F(MoveSenderTest, ATakebackOpensThePlyAgain) {
  sender_->send(move("e2e4"), 0);
  EXPECT_TRUE(sender_->sent_for(0));
  sender_->board_changed(0);
  EXPECT_FALSE(sender_->sent_for(0));
  EXPECT_TRUE(sender_->may_send_for(0));
}

TEST_F(MoveSenderTest, CancelledRetriesAreNotSent) {
  statuses_ = {502};
  sender_->send(move("e2e4"), 0);
  sender_->cancel();  // the game ended
  clock_.advance(Millis(5000));
  EXPECT_FALSE(sender_->tick(0, true));
  EXPECT_EQ(sent("e2e4"), 1);
}

}  // namespace
}  // namespace zh::bot
