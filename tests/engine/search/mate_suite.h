#pragma once
// The project's mate suites (tools/measure/suites/mate.epd, mate in 1-3, and mate-long.epd,
// 4-8) for the mate-search tests: each position's FEN with the mate's length in moves, as
// Fairy-Stockfish found it.

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/test_paths.h"

namespace zh::test {

inline std::vector<std::pair<std::string, int>> mate_suite(const std::string& file = "mate.epd") {
  std::ifstream in(data_dir() + "/../../tools/measure/suites/" + file);
  std::vector<std::pair<std::string, int>> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto semi = line.find(';');
    out.emplace_back(line.substr(0, semi), std::stoi(line.substr(line.find("mate ", semi) + 5)));
  }
  return out;
}

}  // namespace zh::test
