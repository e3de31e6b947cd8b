// UCI transcripts: what cutechess-cli and lichess-bot send, and bad input.
#include "engine/uci/uci.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <sstream>
#include <streambuf>
#include <utility>
#include <vector>

#include "engine/chess/notation.h"
#include "tests/support/fake_clock.h"

namespace zh {
namespace {

using namespace std::chrono_literals;

class UciTest : public ::testing::Test {
 protected:
  UciTest() : loop_(engine_, out_, "zhbot-test") {
    engine_.set_option("backend", "uniform");
    engine_.set_option("seed", "5");
  }
  void send(std::initializer_list<const char*> lines) {
    for (const char* l : lines) ASSERT_TRUE(loop_.handle(l)) << l;
  }
  // Output so far; only read once no search runs (engine_.wait()).
  std::string output() {
    engine_.wait();
    return out_.str();
  }
  std::vector<std::string> lines_starting(const std::string& prefix) {
    std::vector<std::string> r;
    std::istringstream is(output());
    for (std::string l; std::getline(is, l);)
      if (l.rfind(prefix, 0) == 0) r.push_back(l);
    return r;
  }
  std::string fen() {
    send({"d"});
    const auto l = lines_starting("info string fen ");
    return l.empty() ? "" : l.back().substr(16);
  }

  Engine engine_;
  std::ostringstream out_;
  UciLoop loop_;
};

TEST_F(UciTest, HandshakeListsVariantPonderAndEveryOption) {
  send({"uci"});
  const std::string out = output();
  EXPECT_NE(out.find("id name zhbot-test\n"), std::string::npos);
  EXPECT_NE(out.find("option name UCI_Variant type combo default crazyhouse var crazyhouse\n"),
            std::string::npos);
  EXPECT_NE(out.find("option name Ponder type check default false\n"), std::string::npos);
  EXPECT_NE(out.find("option name Threads type spin default 2 min 1 max 256\n"), std::string::npos);
  EXPECT_NE(out.find("option name Move_Overhead type spin default 300 min 0 max 60000\n"),
            std::string::npos);
  EXPECT_NE(out.find("option name Cpuct_Init type string default 2.5\n"), std::string::npos);
  EXPECT_NE(out.find("option name Backend type combo default material"), std::string::npos);
  EXPECT_EQ(out.substr(out.size() - 6), "uciok\n");
  send({"isready"});
  EXPECT_EQ(output().substr(output().size() - 8), "readyok\n");
}

TEST_F(UciTest, PositionAndGoLikeCutechess) {
  send({"setoption name UCI_Variant value crazyhouse", "setoption name Threads value 1",
        "ucinewgame", "isready", "position startpos moves e2e4 d7d5 e4d5 d8d5 b1c3 d5a5",
        "go wtime 5000 btime 5000 winc 100 binc 100"});
  const auto best = lines_starting("bestmove ");
  ASSERT_EQ(best.size(), 1u);
  Game g;
  for (const char* m : {"e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5"}) g.play_uci(m);
  std::istringstream is(best[0]);
  std::string word, move;
  is >> word >> move;
  EXPECT_NO_THROW(parse_uci(g.position(), move)) << best[0];
  EXPECT_FALSE(lines_starting("info depth ").empty());
  EXPECT_NE(lines_starting("info depth ").back().find(" score cp "), std::string::npos);
}

TEST_F(UciTest, DropsPocketsAndBothCastlingForms) {
  send({"position fen r3k2r/8/8/8/8/8/8/R3K2R[Pp] w KQkq - 0 1 moves e1h1 P@e3 P@e6"});
  const std::string f = fen();
  EXPECT_NE(f.find("R4RK1"), std::string::npos) << f;             // e1h1 castled the lichess way
  EXPECT_EQ(f.rfind("r3k2r/8/4P3/8/8/4p3/8/R4RK1", 0), 0u) << f;  // both pawn drops
  send({"position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1"});
  EXPECT_NE(fen().find("RNBQ1RK1"), std::string::npos);
}

TEST_F(UciTest, BadCommandsAreReportedAndChangeNothing) {
  send({"position startpos moves e2e4", "go nodes lots"});
  const std::string before = fen();
  send({"position fen this-is-no-fen", "position startpos moves e2e4 e2e4", "position sideways",
        "setoption name Threads value 0", "setoption name UCI_Variant value chess",
        "setoption name NoSuchOption value 1", "frobnicate"});
  EXPECT_EQ(fen(), before);
  const std::string out = output();
  EXPECT_NE(out.find("info string error: option 'threads': value '0' is not allowed; expected an "
                     "integer in [1, 256]"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("info string variant 'chess' is not supported"), std::string::npos);
  EXPECT_NE(out.find("unknown option 'NoSuchOption'"), std::string::npos);
  EXPECT_NE(out.find("info string unknown command 'frobnicate'"), std::string::npos);
  EXPECT_NE(out.find("'lots' is not a number"), std::string::npos);
  EXPECT_TRUE(lines_starting("bestmove").empty());  // no search was started
}

TEST_F(UciTest, AfterARejectedPositionGoAnswersNullRatherThanTheOldPositionsMove) {
  // Searching the position before the rejected one would answer with a move of the wrong
  // side or board: the GUI would see an illegal move.
  send({"position startpos moves e2e4", "go nodes 50"});
  ASSERT_EQ(lines_starting("bestmove").size(), 1u);
  send({"position startpos moves e2e4 e7e5 e1e8", "go nodes 50"});
  auto best = lines_starting("bestmove");
  ASSERT_EQ(best.size(), 2u);
  EXPECT_EQ(best[1], "bestmove 0000");
  EXPECT_NE(output().find("info string error: the last position command was rejected"),
            std::string::npos);
  send({"position startpos moves e2e4 e7e5", "go nodes 50"});  // a valid one: searching again
  best = lines_starting("bestmove");
  ASSERT_EQ(best.size(), 3u);
  EXPECT_NE(best[2], "bestmove 0000");
}

TEST_F(UciTest, StopDuringPonderAndPonderhit) {
  send({"setoption name Ponder value true", "position startpos moves e2e4 e7e5",
        "go ponder wtime 60000 btime 60000"});
  send({"stop"});
  EXPECT_EQ(lines_starting("bestmove ").size(), 1u);
  send({"position startpos moves e2e4 e7e5 g1f3", "go ponder wtime 2000 btime 2000"});
  send({"ponderhit"});
  EXPECT_EQ(lines_starting("bestmove ").size(), 2u);
}

TEST(Uci, GoDepthNextToAClockStillMovesInTime) {
  // Some GUIs add `depth` to a clocked go; it must not turn the search into an infinite one.
  // On a fake clock the move comes within the budget of 5 s (the 20 ms minimum search).
  test::FakeClock clock;
  Engine engine(clock);
  engine.set_option("backend", "uniform");
  std::ostringstream out;
  UciLoop loop(engine, out, "zhbot-test");
  const TimePoint start = clock.now();
  ASSERT_TRUE(loop.handle("position startpos"));
  ASSERT_TRUE(loop.handle("go depth 12 wtime 5000 btime 5000"));
  while (engine.searching()) {
    ASSERT_TRUE(clock.wait_parked(1, [&] { return !engine.searching(); }));
    if (!engine.searching()) break;
    ASSERT_LT(clock.now() - start, 1s) << "still searching";
    const TimePoint next = clock.next_deadline().value_or(clock.now());
    clock.advance(std::max(Millis(1), std::chrono::duration_cast<Millis>(next - clock.now())));
  }
  engine.wait();
  EXPECT_NE(out.str().find("bestmove "), std::string::npos);
  EXPECT_NE(out.str().find("info string go depth is not supported by MCTS; ignored"),
            std::string::npos);
}

TEST_F(UciTest, InfiniteUntilStopAndPositionDuringSearch) {
  send({"position startpos", "go infinite"});
  send({"stop"});
  EXPECT_EQ(lines_starting("bestmove ").size(), 1u);
  // A GUI that sends a new position while searching still gets its bestmove.
  send({"go infinite", "position startpos moves d2d4", "go nodes 100"});
  EXPECT_EQ(lines_starting("bestmove ").size(), 3u);
  EXPECT_FALSE(loop_.handle("quit"));
}

TEST_F(UciTest, ForcedMateIsReportedAsMate) {
  send({"position fen 5r1k/6pp/8/8/2B5/8/5PPP/6K1[QN] w - - 0 1", "go nodes 50000"});
  const auto info = lines_starting("info depth ");
  ASSERT_FALSE(info.empty());
  EXPECT_NE(info.back().find("score mate 2"), std::string::npos) << info.back();
  EXPECT_EQ(lines_starting("bestmove ").at(0), "bestmove Q@g8 ponder f8g8");
}

TEST_F(UciTest, NoLegalMoveAnswersNullMove) {
  send({"position fen R5k1/5ppp/8/8/8/8/8/6K1[] b - - 0 1", "go movetime 100"});
  EXPECT_EQ(lines_starting("bestmove ").at(0), "bestmove 0000");
}

// An output that records what each flush carried. The loop's own flushes carry one whole line
// each (send() writes a line and flushes it under its lock); a flush that carries nothing came
// from elsewhere, such as a tied input stream flushing before each read, without that lock and
// while the search thread may be writing.
class FlushRecorder : public std::streambuf {
 public:
  std::vector<std::string> flushes() {
    std::lock_guard lock(mutex_);
    return flushes_;
  }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    std::lock_guard lock(mutex_);
    pending_ += traits_type::to_char_type(c);
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::lock_guard lock(mutex_);
    pending_.append(s, std::size_t(n));
    return n;
  }
  int sync() override {
    std::lock_guard lock(mutex_);
    flushes_.push_back(std::exchange(pending_, {}));
    return 0;
  }

 private:
  std::mutex mutex_;
  std::string pending_;
  std::vector<std::string> flushes_;
};

// The regression: std::cin is tied to std::cout, so every read flushed the output from the
// reading thread, racing the search thread's bestmove; now and then a line went out twice and
// the GUI took the copy for its next move (the previous move again: illegal).
TEST(UciRunTest, OnlyTheLoopFlushesItsOutputAndOneWholeLineAtATime) {
  Engine engine;
  engine.set_option("backend", "uniform");
  FlushRecorder recorder;
  std::ostream out(&recorder);
  // The second position has one legal move, answered at once: the race's widest window.
  std::istringstream in(
      "uci\nisready\nposition startpos\ngo nodes 1\nisready\n"
      "position fen 6k1/8/8/8/8/8/5PP1/r5K1[] w - - 0 1\ngo wtime 1000 btime 1000\nquit\n");
  in.tie(&out);
  {
    UciLoop loop(engine, out, "zhbot-test");
    loop.run(in);
  }
  EXPECT_EQ(in.tie(), &out) << "the tie is given back";
  int bestmoves = 0;
  for (const std::string& flush : recorder.flushes()) {
    EXPECT_FALSE(flush.empty()) << "a flush that did not come from send()";
    EXPECT_EQ(std::count(flush.begin(), flush.end(), '\n'), 1) << flush;
    if (flush.rfind("bestmove ", 0) == 0) ++bestmoves;
  }
  EXPECT_EQ(bestmoves, 2);
}

}  // namespace
}  // namespace zh
