#pragma once
// A UCI engine child process (Fairy-Stockfish) talked to over pipes: the engine's own
// ChildProcess (engine/util/child_process.h) with UCI's read-until-a-prefix on top.

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "engine/util/child_process.h"

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
  std::unique_ptr<ChildProcess> child_;
};

}  // namespace zh::emulator
