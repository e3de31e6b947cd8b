// Perft against the reference vectors (tests/data/zh-perft.epd): every position to the deepest
// depth whose count is at most about 5 million.
#include "engine/chess/perft.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_paths.h"

namespace zh {
namespace {

struct PerftCase {
  std::string fen;
  std::vector<std::uint64_t> counts;  // counts[d - 1] = leaves at depth d
};

std::vector<PerftCase> load_cases() {
  std::ifstream in(zh::test::data_dir() + "/zh-perft.epd");
  std::vector<PerftCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    PerftCase c;
    std::stringstream fields(line);
    std::string field;
    std::getline(fields, c.fen, ';');
    c.fen.erase(c.fen.find_last_not_of(' ') + 1);
    while (std::getline(fields, field, ';')) {
      std::stringstream f(field);
      std::string depth;
      std::uint64_t count;
      f >> depth >> count;
      c.counts.push_back(count);
    }
    cases.push_back(c);
  }
  return cases;
}

constexpr std::uint64_t kMaxLeaves = 5'000'000;

class PerftTest : public testing::TestWithParam<PerftCase> {};

TEST_P(PerftTest, MatchesReferenceCounts) {
  const PerftCase& c = GetParam();
  const Position pos = Position::from_fen(c.fen);
  for (size_t d = 1; d <= c.counts.size(); ++d) {
    if (d > 1 && c.counts[d - 1] > kMaxLeaves) break;
    EXPECT_EQ(perft(pos, int(d)), c.counts[d - 1]) << c.fen << " depth " << d;
  }
}

INSTANTIATE_TEST_SUITE_P(ZhPerftEpd, PerftTest, testing::ValuesIn(load_cases()),
                         [](const testing::TestParamInfo<PerftCase>& info) {
                           return "position_" + std::to_string(info.index + 1);
                         });

TEST(PerftSuite, FileHasAllPositions) { EXPECT_EQ(load_cases().size(), 28u); }

// The divide lists add up to the total and walk do_move consistently (key, bitboards).
TEST(PerftDivide, SumsToPerftAndKeepsPositionsConsistent) {
  for (const auto& c : load_cases()) {
    const Position pos = Position::from_fen(c.fen);
    std::uint64_t sum = 0;
    for (const auto& [move, count] : perft_divide(pos, 2)) {
      Position next = pos;
      next.do_move(move);
      EXPECT_TRUE(next.is_consistent()) << c.fen;
      sum += count;
    }
    EXPECT_EQ(sum, c.counts.size() >= 2 ? c.counts[1] : perft(pos, 2)) << c.fen;
  }
}

}  // namespace
}  // namespace zh
