// Recorded games (engine/datagen/recorded_games.h): reading match records, and labelling their
// positions with the real teacher (skipped when Fairy-Stockfish is not installed).
#include "engine/datagen/recorded_games.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "engine/datagen/datagen.h"
#include "engine/datagen/shard_io.h"

namespace zh::datagen {
namespace {
namespace fs = std::filesystem;

// A position after 1. Nc3 d6 2. e3, as the lab's openings are; black to move, ply 3.
constexpr const char* kOpening = "rnbqkbnr/ppp1pppp/3p4/8/8/2N1P3/PPPP1PPP/R1BQKBNR[] b KQkq - 0 2";

class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(fs::temp_directory_path() / (name + "-" + std::to_string(getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name) << text;
    return path_ / name;
  }

 private:
  fs::path path_;
};

std::string game_line(const std::string& moves, const std::string& result,
                      const std::string& extra = "") {
  return std::string(R"({"opening": ")") + kOpening + R"(", "moves": ")" + moves +
         R"(", "result": ")" + result + "\"" + extra + "}\n";
}

TEST(RecordedGames, ReadsFinishedGamesAndNamesEveryBadLine) {
  TempDir dir("zh-recorded-read");
  const fs::path a = dir.write(
      "a.jsonl",
      game_line("g8f6 d2d4", "0-1", R"(, "white": "zhbot:nodes=1000", "black": "zhbot:x")") +
          game_line("g8f6 d2d4", "0-1") +  // the same game again
          game_line("g8f6 e1e3", "1-0") +  // illegal move
          "{\"moves\": \"e2e4\"\n" +       // not JSON
          "\n" +                           // empty: ignored
          R"({"moves": "e2e4 e7e5", "result": "*"})"
          "\n" +  // unfinished
          R"({"moves": "e2e4 e7e5", "result": "1/2-1/2", "white": "fairy-stockfish:skill=5",)"
          R"( "black": "fairy-stockfish:skill=10"})"
          "\n");
  const fs::path b =
      dir.write("b.jsonl", game_line("g8f6 d2d4 c7c6", "1-0") + R"({"result": "1-0"})"
                                                                "\n");  // no moves
  const RecordedGames r = read_recorded_games({a, b});
  ASSERT_EQ(r.games.size(), 3u);
  EXPECT_EQ(r.lines, 8);
  EXPECT_EQ(r.repeated, 1);
  EXPECT_EQ(r.unfinished, 1);
  EXPECT_EQ(r.bad, 3);
  ASSERT_EQ(r.examples.size(), 3u);
  EXPECT_EQ(r.examples[0].rfind(a.string() + ":3: ", 0), 0u) << r.examples[0];
  EXPECT_EQ(r.examples[1].rfind(a.string() + ":4: ", 0), 0u) << r.examples[1];
  EXPECT_EQ(r.examples[2].rfind(b.string() + ":2: ", 0), 0u) << r.examples[2];

  EXPECT_EQ(r.games[0].game.start().key(), Position::from_fen(kOpening).key());
  EXPECT_EQ(r.games[0].game.moves().size(), 2u);
  EXPECT_EQ(r.games[0].result, GameResult::kBlackWins);
  EXPECT_TRUE(r.games[0].zhbot_played);
  // No opening: the start position. Two engines, neither zhbot: not zhbot's game.
  EXPECT_EQ(r.games[1].game.start().fen(), Position().fen());
  EXPECT_EQ(r.games[1].result, GameResult::kDraw);
  EXPECT_FALSE(r.games[1].zhbot_played);
  EXPECT_EQ(r.games[2].result, GameResult::kWhiteWins);
  EXPECT_NE(r.games[0].id, r.games[2].id);  // one more move: another game

  std::ostringstream report;
  print_report(r, report);
  EXPECT_NE(report.str().find("3 games of 8 read; skipped 1 unfinished, 1 read before, 0 of "
                              "another variant, 3 bad"),
            std::string::npos)
      << report.str();
}

TEST(RecordedGames, AFolderIsReadForItsPgnAndMatchRecords) {
  // The daemon writes one PGN file per game into its pgn_dir; lichess's PGN names the variant.
  TempDir dir("zh-recorded-folder");
  dir.write("0001.pgn",
            "[Event \"Rated Crazyhouse game\"]\n[White \"zhbot\"]\n[Black \"someone\"]\n"
            "[Result \"0-1\"]\n[Variant \"Crazyhouse\"]\n\n"
            "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@b4 { a drop } Qxb4 0-1\n");
  dir.write("0002.pgn",
            "[Event \"Casual\"]\n[Variant \"Crazyhouse\"]\n[SetUp \"1\"]\n"
            "[FEN \"" +
                std::string(kOpening) +
                "\"]\n\n2... Nf6 3. d4 1-0\n\n"
                "[Event \"Another variant\"]\n[Variant \"Chess960\"]\n\n1. e4 e5 1-0\n\n"
                "[Event \"Aborted\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 *\n\n"
                "[Event \"Bad\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 Ke7 2. Qh5 1-0\n");
  dir.write("notes.txt", "not a game");
  fs::create_directories(dir.path() / "sprt");
  dir.write("sprt/test.jsonl", game_line("g8f6 d2d4 c7c6", "1/2-1/2"));
  const RecordedGames r = read_recorded_games({dir.path()});
  ASSERT_EQ(r.games.size(), 3u);
  EXPECT_EQ(r.lines, 6);
  EXPECT_EQ(r.other_variant, 1);
  EXPECT_EQ(r.unfinished, 1);
  ASSERT_EQ(r.bad, 1);
  EXPECT_NE(r.examples[0].find("0002.pgn:"), std::string::npos) << r.examples[0];
  // In name order: 0001.pgn, 0002.pgn, sprt/test.jsonl.
  EXPECT_EQ(r.games[0].game.moves().size(), 8u);
  EXPECT_EQ(r.games[0].result, GameResult::kBlackWins);
  EXPECT_TRUE(r.games[0].zhbot_played);
  EXPECT_EQ(r.games[1].game.start().key(), Position::from_fen(kOpening).key());
  EXPECT_EQ(r.games[1].game.moves().size(), 2u);
  EXPECT_EQ(r.games[1].result, GameResult::kWhiteWins);
  EXPECT_EQ(r.games[2].result, GameResult::kDraw);
}

TEST(RecordedGames, AMissingFileIsAnError) {
  EXPECT_THROW(read_recorded_games({fs::path("/nonexistent/games.jsonl")}), FormatError);
}

bool have_teacher() { return fs::exists(TeacherConfig{}.path); }

DatagenOptions relabel(const fs::path& out, std::vector<RecordedGame> games) {
  DatagenOptions o;
  o.teacher.nodes = 100;
  o.out = out;
  o.prefix = "recorded";
  o.workers = 1;  // games in order: which copy of a position is labelled is known
  o.recorded = std::move(games);
  return o;
}

TEST(RecordedGames, EveryPositionIsLabelledOnceWithTheRecordedResult) {
  if (!have_teacher()) GTEST_SKIP() << "fairy-stockfish is not installed";
  TempDir dir("zh-recorded-label");
  // Black resigned after four moves (a result no rule gives); the second game is the Scholar's
  // mate, whose last position has no move to label; the third repeats the first game's opening
  // and first reply, which are labelled once.
  const fs::path file = dir.write(
      "games.jsonl", game_line("g8f6 d2d4 c7c6 f1d3", "1-0") +
                         R"({"moves": "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7", "result": "1-0"})"
                         "\n" +
                         game_line("g8f6 g1f3", "1/2-1/2"));
  const RecordedGames read = read_recorded_games({file});
  ASSERT_EQ(read.games.size(), 3u);
  std::atomic<bool> stop{false};
  std::ostringstream log;
  const fs::path out = dir.path() / "out";
  const DatagenReport r = run_datagen(relabel(out, read.games), stop, log);
  EXPECT_EQ(r.games, 3);
  EXPECT_EQ(r.adjudicated, 0);
  // 5 + 7 + 3 positions, of which the third game's first two were labelled in the first.
  EXPECT_EQ(r.positions, 13);
  EXPECT_EQ(r.duplicates_skipped, 2);

  std::map<std::uint64_t, std::vector<Record>> by_game;
  for (const auto& shard : list_shards(out)) {
    EXPECT_EQ(shard.filename().string().rfind("recorded-", 0), 0u) << shard;
    for (const Record& rec : read_shard(shard)) by_game[rec.game_id].push_back(rec);
  }
  ASSERT_EQ(by_game.size(), 3u);
  const auto& resigned = by_game.at(read.games[0].id);
  ASSERT_EQ(resigned.size(), 5u);
  Game replay(read.games[0].game.start());
  for (std::size_t i = 0; i < resigned.size(); ++i) {
    const Record& rec = resigned[i];
    EXPECT_EQ(fen_of(rec), replay.position().fen()) << i;
    EXPECT_EQ(rec.ply, 3 + i);  // counted from the game's first move, not the opening's
    EXPECT_TRUE(rec.flags & kFlagOwnGame);
    EXPECT_FALSE(rec.flags & kFlagAdjudicated);
    EXPECT_GE(rec.pv_count, 1);
    // White won: +1 for white to move, -1 for black.
    EXPECT_EQ(int(rec.result), replay.position().side_to_move() == kWhite ? 1 : -1) << i;
    if (i < read.games[0].game.moves().size()) replay.play(read.games[0].game.moves()[i]);
  }
  // The last position (after f1d3, no move played there) is labelled but has no move to
  // differ from the teacher's.
  EXPECT_FALSE(resigned.back().flags & kFlagMoveNotTeacher);
  EXPECT_EQ(by_game.at(read.games[1].id).size(), 7u);  // the mated position is not labelled
  EXPECT_EQ(by_game.at(read.games[1].id).front().ply, 0);

  // Run again over the same folder: every game is there already, none is labelled twice.
  const DatagenReport again = run_datagen(relabel(out, read.games), stop, log);
  EXPECT_EQ(again.games, 0);
  EXPECT_EQ(again.games_before, 3);
}

}  // namespace
}  // namespace zh::datagen
