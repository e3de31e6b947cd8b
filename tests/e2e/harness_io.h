#pragma once
// What the end-to-end harness needs around its processes: how it starts one (a process group of
// its own, output to a log file, killed with the test) and how it reads a text file back.

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "engine/util/child_process.h"

namespace zh::e2e {

inline ChildOptions harness_child(const std::filesystem::path& log,
                                  std::map<std::string, std::string> env = {}) {
  ChildOptions options;
  options.log_file = log;
  options.env_set = std::move(env);
  options.own_group = true;
  return options;
}

// The whole content of a text file ("" when it does not exist): logs, port files, /proc.
inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace zh::e2e
