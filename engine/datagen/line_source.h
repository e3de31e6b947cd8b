#pragma once
// Lines of a plain text file, or of a .gz file read through `gzip -dc` (no compression library
// needed). Used by the JSONL import and the opening-book builder.

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "engine/util/child_process.h"

namespace zh::datagen {

class LineSource {
 public:
  // Throws FormatError (record_format.h) when the file is missing or unreadable.
  explicit LineSource(const std::filesystem::path& file);
  // The next line (without its newline); false at the end. A corrupt or truncated .gz throws
  // FormatError rather than end early in silence.
  bool next(std::string& line);

 private:
  std::string file_;
  std::unique_ptr<ChildProcess> gzip_;
  std::ifstream plain_;
};

}  // namespace zh::datagen
