// The opening book on the wire (issue 32 §4): a book built with `zhbot book build` from a PGN
// gives the bot's first moves, instantly against a bot and never below the human minimum think
// time against a human; the PGN marks them { book }; the search takes over where the book
// ends. And the opening explorer (the emulator's stand-in): its move is played, and when it
// has nothing the search plays and it is not asked again in that game.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "tests/e2e/e2e_fixture.h"
#include "tests/support/test_paths.h"

namespace zh::e2e {
namespace {

using E2eBook = E2eTest;

// Runs `zhbot <args>` to completion; returns its exit code and output.
std::pair<int, std::string> run_zhbot(const std::filesystem::path& dir,
                                      std::vector<std::string> args) {
  static int runs = 0;
  const auto log = dir / ("zhbot-book-" + std::to_string(++runs) + ".log");
  args.insert(args.begin(), zh::test::zhbot_bin());
  ChildOptions options;
  options.log_file = log;
  options.own_group = true;
  ChildProcess p(args, options);
  const auto status = p.wait_exit(60s);
  return {status && status->exited ? status->code : -1, read_text(log)};
}

// Opponent games: 1. e4 e5 2. Nf3 Nc6 3. Bc4 twice, 1. e4 c5 once (a lost game for White).
const char* kGames =
    "[Event \"a\"]\n[Variant \"Crazyhouse\"]\n[Result \"1-0\"]\n\n"
    "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 1-0\n\n"
    "[Event \"b\"]\n[Variant \"Crazyhouse\"]\n[Result \"1-0\"]\n\n"
    "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 1-0\n\n"
    "[Event \"c\"]\n[Variant \"Crazyhouse\"]\n[Result \"0-1\"]\n\n"
    "1. e4 c5 0-1\n";

std::vector<std::string> split(const std::string& moves) {
  std::vector<std::string> out;
  std::istringstream in(moves);
  std::string m;
  while (in >> m) out.push_back(m);
  return out;
}

TEST_F(E2eBook, ABookGamesFirstMovesComeFromTheBook) {
  start_emulator();
  { std::ofstream(dir_ / "games.pgn") << kGames; }
  // White's book: 1. e4, 2. Nf3 (after 1... e5), 3. Bc4 (after 2... Nc6); min-count 2 leaves
  // out Black's rarer replies.
  const auto [rc, out] =
      run_zhbot(dir_, {"book", "build", "--out", (dir_ / "zh.book").string(), "--from-pgn",
                       (dir_ / "games.pgn").string(), "--max-plies", "6", "--min-count", "2"});
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("3 read, 0 skipped, 0 bad"), std::string::npos) << out;
  const auto [probe_rc, probe] =
      run_zhbot(dir_, {"book", "probe", "--book", (dir_ / "zh.book").string()});
  ASSERT_EQ(probe_rc, 0) << probe;
  EXPECT_NE(probe.find("e2e4    e4"), std::string::npos) << probe;

  BotSettings s = settings();
  s.set("book", "book_enabled", "true")
      .set_quoted("book", "book_file", (dir_ / "zh.book").string())
      .set("game", "human_min_think_ms", "400");
  BotProcess& bot = start_bot(s);
  ASSERT_TRUE(bot.wait_log("opening book", 60s)) << bot.log();
  // A human (no BOT title) who plays 1... e5 2... Nc6 3... d6 and resigns at their 4th move.
  Json opponent = {{"type", "script"},
                   {"moves", {"e7e5", "b8c6", "d7d6"}},
                   {"after_script", "idle"},
                   {"resign_at_ply", 7}};
  Json spec = challenge_spec("Hugo", false, opponent, 120, 0);
  spec["color"] = "black";  // the challenger's: the bot plays White
  const std::string id = accepted_game(emu_->challenge(spec));
  ASSERT_FALSE(id.empty());
  const Json g = expect_clean_finish(id, 60s);
  const auto moves = split(g.value("moves", ""));
  ASSERT_GE(moves.size(), 7u) << g.dump();
  EXPECT_EQ(moves[0], "e2e4");
  EXPECT_EQ(moves[2], "g1f3");
  EXPECT_EQ(moves[4], "f1c4");
  // Book moves never go out faster than the human minimum think time.
  const std::vector<long> times = bot_move_times_ms(g);
  ASSERT_GE(times.size(), 3u);
  for (std::size_t i = 1; i < 3; ++i) EXPECT_GE(times[i], 400) << "book move " << i;

  std::string pgn = read_text(dir_ / "pgn" / (id + ".pgn"));
  std::replace(pgn.begin(), pgn.end(), '\n', ' ');  // movetext is wrapped at 80 columns
  EXPECT_NE(pgn.find("1. e4 { book [%clk"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("2. Nf3 { book [%clk"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("3. Bc4 { book [%clk"), std::string::npos) << pgn;
  // 4th move: out of the book (3... d6 is not in it), so the search with its evaluation.
  EXPECT_NE(pgn.find("[%eval"), std::string::npos) << pgn;
  EXPECT_EQ(bot.log_count("from the book"), 3) << bot.log();
  EXPECT_NE(bot.log().find("played e2e4 from the book (weight"), std::string::npos);
}

TEST_F(E2eBook, TheExplorersMoveIsPlayedAndAnEmptyAnswerFallsBackToTheSearch) {
  start_emulator();
  Json d4 = {{"uci", "d2d4"}, {"white", 300}, {"draws", 10}, {"black", 200}};
  Json start = Json::object();
  start["fen"] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1";
  start["moves"] = Json::array({d4});
  Json table = Json::object();
  table["positions"] = Json::array({start});
  emu_->post("/admin/explorer", table);
  BotSettings s = settings();
  s.set("book", "book_enabled", "true")
      .set("book", "book_explorer", "true")
      .set_quoted("book", "book_explorer_url", emu_->base_url() + "/explorer/lichess");
  BotProcess& bot = start_connected_bot(s);
  Json opponent = {{"type", "script"},
                   {"moves", {"d7d5", "g8f6"}},
                   {"after_script", "idle"},
                   {"resign_at_ply", 5}};
  Json spec = challenge_spec("Robo", true, opponent, 120, 0);
  spec["color"] = "black";
  const std::string id = accepted_game(emu_->challenge(spec));
  ASSERT_FALSE(id.empty());
  const Json g = expect_clean_finish(id, 60s);
  const auto moves = split(g.value("moves", ""));
  ASSERT_GE(moves.size(), 5u) << g.dump();
  EXPECT_EQ(moves[0], "d2d4");
  const Json asked = emu_->get("/admin/explorer");
  // Asked at the start (answered) and after 1... d5 (nothing): then never again this game.
  EXPECT_EQ(asked.value("requests", 0), 2) << asked.dump();
  for (const auto& v : asked["variants"]) EXPECT_EQ(v, "crazyhouse");
  // Not lichess's explorer host and no opt-in: the bot's token never went there.
  EXPECT_EQ(asked.value("with_authorization", -1), 0) << asked.dump();
  EXPECT_NE(bot.log().find("without a token"), std::string::npos) << bot.log();
  const std::string pgn = read_text(dir_ / "pgn" / (id + ".pgn"));
  EXPECT_NE(pgn.find("1. d4 { explorer [%clk"), std::string::npos) << pgn;
  EXPECT_NE(bot.log().find("played d2d4 from the explorer (510 games"), std::string::npos)
      << bot.log();
  EXPECT_NE(bot.log().find("opening explorer: no move played often enough"), std::string::npos)
      << bot.log();
}

TEST_F(E2eBook, AMalformedBookStopsTheStartNamingTheLine) {
  start_emulator();
  {
    std::ofstream(dir_ / "bad.book") << "zhbot-book 1\n"
                                        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - | "
                                        "e2e5:10\n";
  }
  BotSettings s = settings();
  s.set("book", "book_enabled", "true")
      .set_quoted("book", "book_file", (dir_ / "bad.book").string());
  BotProcess& bot = start_bot(s);
  const auto status = bot.process().wait_exit(30s);
  ASSERT_TRUE(status && status->exited) << bot.log();
  EXPECT_EQ(status->code, 78);  // configuration error: systemd does not restart into it
  EXPECT_NE(bot.log().find("bad.book:2: move 'e2e5' is not legal"), std::string::npos) << bot.log();
}

}  // namespace
}  // namespace zh::e2e
