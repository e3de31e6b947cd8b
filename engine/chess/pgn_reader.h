#pragma once
// Reads games from PGN text: the tag pairs and the main line's SAN moves. Comments ({...} and
// ; to the end of the line), variations ((...), nested), NAGs ($1), move numbers and
// annotation marks are skipped. Legality is not checked here: its readers (the opening book's
// sources, datagen's recorded games) replay the moves with the project's SAN parser, which reads
// drops such as N@f7+.

#include <cstddef>
#include <istream>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace zh {

struct PgnGameText {
  std::size_t line = 0;  // where the game starts in the file
  std::map<std::string, std::string> tags;
  std::vector<std::string> moves;  // SAN
  std::string result;              // "1-0", "0-1", "1/2-1/2", "*" or "" when missing
};

class PgnReader {
 public:
  explicit PgnReader(std::istream& in) : in_(in) {}
  // The next game, or none at the end of the input.
  std::optional<PgnGameText> next();

 private:
  bool read_line(std::string& line);
  std::istream& in_;
  std::size_t line_no_ = 0;
  std::optional<std::string> pending_;  // a tag line that began the next game
};

}  // namespace zh
