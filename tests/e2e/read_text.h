#pragma once
// The whole content of a text file ("" when it does not exist): logs, port files, /proc.

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace zh::e2e {

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace zh::e2e
