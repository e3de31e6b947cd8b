#include "engine/book/book_sources.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/chess/notation.h"
#include "engine/datagen/jsonl_import.h"
#include "tests/engine/book/position_after.h"

namespace zh::book {
namespace {

using test::after;
namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("zh-book-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write_file(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

std::string moves_text(const OpeningBook& book, const Position& pos) {
  std::string s;
  for (const auto& m : book.moves(pos)) {
    if (!s.empty()) s += ' ';
    s += to_uci(m.move) + ":" + std::to_string(m.weight);
  }
  return s;
}

TEST(BookWeights, GrowWithCountAndScore) {
  EXPECT_EQ(BookBuilder::weight(1, 0.5), 50u);   // unknown result: 50 per sample
  EXPECT_EQ(BookBuilder::weight(4, 2.0), 200u);  // 4 games, half the points
  EXPECT_GT(BookBuilder::weight(4, 4.0), BookBuilder::weight(4, 2.0));
  EXPECT_GT(BookBuilder::weight(8, 4.0), BookBuilder::weight(4, 2.0));
  EXPECT_GE(BookBuilder::weight(1, 0.0), 1u);  // a lost game still counts a little
}

TEST(BookFromPgn, CountsMovesWithDropsAndResultsAndSkipsOtherVariants) {
  const fs::path dir = fresh_dir("pgn");
  write_file(dir / "games.pgn",
             "[Variant \"Crazyhouse\"]\n[Result \"1-0\"]\n\n"
             "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d4 1-0\n\n"
             "[Variant \"Crazyhouse\"]\n[Result \"0-1\"]\n\n"
             "1. e4 e5 2. Nf3 0-1\n\n"
             "[Variant \"Standard\"]\n\n1. d4 d5 1/2-1/2\n\n"
             "[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. Ke3 *\n");
  BookBuilder builder(BuildOptions{6, 1});
  const SourceReport r = add_pgn(dir / "games.pgn", builder);
  EXPECT_EQ(r.items, 4);
  EXPECT_EQ(r.skipped, 1);  // the standard game
  EXPECT_EQ(r.bad, 1);      // Ke3 is not legal; e4 and d5 before it still count
  ASSERT_EQ(r.examples.size(), 1u);
  EXPECT_NE(r.examples[0].find("game 4 (line 15): move 2. Ke3"), std::string::npos)
      << r.examples[0];
  const OpeningBook book = builder.build();
  // e4: a win (1-0), a loss (0-1) and an unknown result (*): 3 samples, 1.5 points.
  EXPECT_EQ(moves_text(book, Position()), "e2e4:150");
  // After 1. e4 Black chose d5 twice (lost once, unknown once) and e5 once (won).
  EXPECT_EQ(moves_text(book, after("e2e4")), "d7d5:75 e7e5:67");
  // Ply 5 is the last one within max_plies 6; 4. P@d4 (ply 6) is left out.
  EXPECT_EQ(moves_text(book, after("e2e4 d7d5 e4d5 d8d5 b1c3")), "d5a5:33");
  EXPECT_EQ(moves_text(book, after("e2e4 d7d5 e4d5 d8d5 b1c3 d5a5")), "");
  fs::remove_all(dir);
}

TEST(BookFromPgn, KeepsADropWithinMaxPlies) {
  const fs::path dir = fresh_dir("drop");
  write_file(dir / "g.pgn", "1. e4 d5 2. exd5 Qxd5 3. P@e4 Qd8 *\n");
  BookBuilder builder(BuildOptions{10, 1});
  add_pgn(dir / "g.pgn", builder);
  const OpeningBook book = builder.build();
  EXPECT_EQ(moves_text(book, after("e2e4 d7d5 e4d5 d8d5")), "P@e4:50");
  fs::remove_all(dir);
}

TEST(BookFromPgn, MinCountDropsRareMoves) {
  const fs::path dir = fresh_dir("mincount");
  write_file(dir / "g.pgn", "1. e4 e5 *\n\n1. e4 c5 *\n\n1. d4 d5 *\n");
  BookBuilder builder(BuildOptions{10, 2});
  add_pgn(dir / "g.pgn", builder);
  const OpeningBook book = builder.build();
  EXPECT_EQ(moves_text(book, Position()), "e2e4:100");
  EXPECT_EQ(book.positions(), 1u);
  fs::remove_all(dir);
}

TEST(BookFromPgn, StartsFromAFenTag) {
  const fs::path dir = fresh_dir("fen");
  write_file(
      dir / "g.pgn",
      "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR/ b KQkq - 0 1\"]\n\n1... c5 *\n");
  BookBuilder builder(BuildOptions{4, 1});
  add_pgn(dir / "g.pgn", builder);
  EXPECT_EQ(moves_text(builder.build(), after("e2e4")), "c7c5:50");
  fs::remove_all(dir);
}

const char* kTeacherLines =
    "{\"g\":\"a\",\"ply\":0,\"fen\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 "
    "1\",\"best\":\"g1f3\",\"cp\":35,\"mate\":null,\"result\":\"1-0\"}\n"
    "{\"g\":\"a\",\"ply\":1,\"fen\":\"rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R/ b KQkq - 1 "
    "1\",\"best\":\"g8f6\",\"cp\":-30,\"mate\":null,\"result\":\"1-0\"}\n"
    "{not json\n"
    "{\"g\":\"b\",\"ply\":0,\"fen\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 "
    "1\",\"best\":\"g1f3\",\"cp\":35,\"mate\":null,\"result\":\"0-1\"}\n"
    "{\"g\":\"b\",\"ply\":1,\"fen\":\"rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R/ b KQkq - 1 "
    "1\",\"best\":\"e7e5\",\"cp\":-30,\"mate\":null,\"result\":\"0-1\"}\n"
    "{\"g\":\"b\",\"ply\":2,\"fen\":\"rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R/ w KQkq - 0 "
    "2\",\"best\":\"f3e5\",\"cp\":100,\"mate\":null,\"result\":\"0-1\"}\n";

TEST(BookFromTeacherData, JsonlAndShardsGiveTheSameBook) {
  const fs::path dir = fresh_dir("teacher");
  write_file(dir / "t.jsonl", kTeacherLines);
  BookBuilder from_jsonl(BuildOptions{2, 1});
  const SourceReport rj = add_teacher_jsonl(dir / "t.jsonl", from_jsonl);
  EXPECT_EQ(rj.bad, 1);      // the line that is not JSON
  EXPECT_EQ(rj.skipped, 1);  // ply 2 >= max_plies
  const OpeningBook a = from_jsonl.build();

  // The same records as training shards, as `zhbot datagen --import` writes them.
  {
    datagen::ShardWriter writer(dir / "shards", "t", 1000, 0.0f);
    std::ostringstream log;
    datagen::import_jsonl(dir / "t.jsonl", writer, log);
    writer.close();
  }
  BookBuilder from_shards(BuildOptions{2, 1});
  const SourceReport rs = add_shards(dir / "shards", from_shards);
  EXPECT_EQ(rs.items, 5);
  EXPECT_EQ(rs.bad, 0);
  const OpeningBook b = from_shards.build();

  // g1f3 won once and lost once: 2 samples, 1 point.
  EXPECT_EQ(moves_text(a, Position()), "g1f3:100");
  EXPECT_EQ(moves_text(a, after("g1f3")), "e7e5:67 g8f6:33");
  std::ostringstream ta, tb;
  a.write(ta);
  b.write(tb);
  EXPECT_EQ(ta.str(), tb.str());
  fs::remove_all(dir);
}

TEST(BookFromTeacherData, MissingSourcesAreNamed) {
  BookBuilder builder(BuildOptions{});
  EXPECT_THROW(add_shards("/nonexistent/shards", builder), BookError);
  EXPECT_THROW(add_pgn("/nonexistent/g.pgn", builder), BookError);
  EXPECT_ANY_THROW(add_teacher_jsonl("/nonexistent/t.jsonl", builder));
}

}  // namespace
}  // namespace zh::book
