#pragma once
// A UCI engine child process (Fairy-Stockfish) talked to over pipes.

#include <sys/types.h>

#include <chrono>
#include <string>
#include <string_view>

namespace zh::emulator {

class UciProcess {
 public:
  // Starts `path`; throws std::runtime_error when it cannot be started.
  explicit UciProcess(const std::string& path);
  ~UciProcess();
  UciProcess(const UciProcess&) = delete;
  UciProcess& operator=(const UciProcess&) = delete;

  void send(const std::string& line);
  // Reads lines until one starts with `prefix` and returns it; throws std::runtime_error on
  // EOF or when `timeout` passes first.
  std::string read_until(std::string_view prefix, std::chrono::milliseconds timeout);

 private:
  bool read_line(std::string& line, std::chrono::steady_clock::time_point deadline);

  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string buffer_;
};

}  // namespace zh::emulator
