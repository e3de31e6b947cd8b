#include "bot/pgn/pgn_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "engine/chess/notation.h"
#include "engine/chess/position.h"

namespace zh::bot {
namespace {

// A random legal game in lichess's UCI form (king-to-rook castling, upper-case drops).
std::vector<std::string> random_game(unsigned seed, int plies) {
  std::mt19937 rng(seed);
  Position pos;
  std::vector<std::string> moves;
  for (int i = 0; i < plies; ++i) {
    const MoveList legal = pos.legal_moves();
    if (legal.empty()) break;
    const Move m = legal[int(rng() % unsigned(legal.size()))];
    moves.push_back(to_uci(m, CastlingNotation::kKingToRook));
    pos.do_move(m);
  }
  return moves;
}

// Reads the move text back with the project's SAN parser: the test the issue asks for.
std::vector<Move> reread(const std::string& pgn, const std::string& expected_result) {
  const auto body_start = pgn.find("\n\n");
  EXPECT_NE(body_start, std::string::npos);
  std::string body = pgn.substr(body_start + 2);
  // Drop comments.
  std::string clean;
  int depth = 0;
  for (char c : body) {
    if (c == '{') ++depth;
    if (depth == 0) clean += c;
    if (c == '}') --depth;
  }
  std::istringstream in(clean);
  Position pos;
  std::vector<Move> moves;
  std::string token, last;
  while (in >> token) {
    last = token;
    if (token == expected_result) break;
    if (token.back() == '.') continue;  // "12." or "12..."
    const Move m = parse_san(pos, token);
    moves.push_back(m);
    pos.do_move(m);
  }
  EXPECT_EQ(last, expected_result);
  return moves;
}

PgnGame sample(const std::vector<std::string>& moves) {
  PgnGame g;
  g.game_id = "abcdefgh";
  g.rated = true;
  g.start_time_ms = 1763776800000;  // 2025-11-22 02:00:00 UTC
  g.white = "zhbot";
  g.white_title = "BOT";
  g.black = "Alice";
  g.white_elo = 2100;
  g.black_elo = 1890;
  g.clock_initial_ms = 180000;
  g.clock_increment_ms = 2000;
  g.uci_moves = moves;
  g.status = "mate";
  g.winner = "white";
  return g;
}

TEST(PgnWriter, RandomCrazyhouseGamesReadBackMoveForMove) {
  int drops = 0;
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const auto moves = random_game(seed, 120);
    PgnGame g = sample(moves);
    for (std::size_t ply = 0; ply < moves.size(); ply += 2)  // our moves: White's
      g.notes.resize(ply + 1),
          g.notes[ply] = {int(ply) - 40, std::nullopt, 180000 - 1000 * ply, ""};
    const std::string pgn = write_pgn(g);
    const auto back = reread(pgn, "1-0");
    ASSERT_EQ(back.size(), moves.size()) << pgn;
    Position pos;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      EXPECT_EQ(back[i], parse_uci(pos, moves[i])) << "seed " << seed << " ply " << i;
      drops += back[i].is_drop();
      pos.do_move(back[i]);
    }
  }
  EXPECT_GT(drops, 20);  // the games really exercise drops
}

TEST(PgnWriter, HeadersAndCommentsInLichessForm) {
  PgnGame g = sample({"e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5", "g1f3", "g8f6", "f1c4",
                      "c8g4", "e1h1", "P@h3"});
  g.notes.resize(11);
  g.notes[0] = {35, std::nullopt, 178000, ""};
  g.notes[10] = {std::nullopt, 3, 3723000, ""};
  const std::string pgn = write_pgn(g);
  for (const char* header :
       {"[Event \"Rated Crazyhouse game\"]", "[Site \"https://lichess.org/abcdefgh\"]",
        "[Date \"2025.11.22\"]", "[White \"zhbot\"]", "[Black \"Alice\"]", "[Result \"1-0\"]",
        "[WhiteElo \"2100\"]", "[BlackElo \"1890\"]", "[WhiteTitle \"BOT\"]",
        "[Variant \"Crazyhouse\"]", "[TimeControl \"180+2\"]", "[Termination \"Normal\"]",
        "[UTCTime \"02:00:00\"]"})
    EXPECT_NE(pgn.find(header), std::string::npos) << header << "\n" << pgn;
  EXPECT_NE(pgn.find("1. e4 { [%eval 0.35] [%clk 0:02:58] } 1... d5 2. exd5"), std::string::npos)
      << pgn;
  EXPECT_NE(pgn.find("6. O-O { [%eval #3] [%clk 1:02:03] } 6... P@h3"), std::string::npos) << pgn;
  EXPECT_EQ(pgn.find("[FEN"), std::string::npos);
  for (const auto& line : [&] {
         std::vector<std::string> v;
         std::istringstream in(pgn);
         for (std::string l; std::getline(in, l);) v.push_back(l);
         return v;
       }())
    EXPECT_LE(line.size(), 80u) << line;
}

TEST(PgnWriter, ResultsAndTerminations) {
  EXPECT_EQ(pgn_result("mate", "black"), "0-1");
  EXPECT_EQ(pgn_result("outoftime", "white"), "1-0");
  EXPECT_EQ(pgn_result("draw", ""), "1/2-1/2");
  EXPECT_EQ(pgn_result("stalemate", ""), "1/2-1/2");
  EXPECT_EQ(pgn_result("aborted", ""), "*");
  EXPECT_EQ(pgn_result("started", ""), "*");
  EXPECT_EQ(pgn_termination("outoftime"), "Time forfeit");
  EXPECT_EQ(pgn_termination("timeout"), "Abandoned");
  EXPECT_EQ(pgn_termination("resign"), "Normal");
  EXPECT_EQ(pgn_termination("cheat"), "Rules infraction");
  EXPECT_EQ(pgn_termination("started"), "Unterminated");
}

TEST(PgnWriter, IllegalMovesAreRefused) {
  EXPECT_THROW(write_pgn(sample({"e2e4", "e2e4"})), MoveError);
}

TEST(PgnWriter, HeaderValuesCannotBreakOutOfTheirQuotes) {
  PgnGame g = sample({"e2e4"});
  g.black = "Eve\"]\n[Result \"0-1";
  const std::string pgn = write_pgn(g);
  EXPECT_NE(pgn.find("[Black \"Eve\\\"]"), std::string::npos) << pgn;
  EXPECT_EQ(pgn.find("\n[Result \"0-1\"]"), std::string::npos) << pgn;
}

TEST(PgnWriter, SavesOneFilePerGame) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("zhbot_pgn_test_" + std::to_string(::getpid()));
  const auto path = save_pgn(dir, sample({"e2e4", "e7e5"}));
  EXPECT_EQ(path.filename(), "abcdefgh.pgn");
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "[Event \"Rated Crazyhouse game\"]");
  PgnGame bad = sample({});
  bad.game_id = "../../etc";
  EXPECT_THROW(save_pgn(dir, bad), std::runtime_error);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace zh::bot
