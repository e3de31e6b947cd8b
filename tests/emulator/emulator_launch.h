#pragma once
// The one way to start the lichess emulator, for every harness that needs one (the emulator's
// own tests, the end-to-end tests and their programs, the offline demo): the real binary on a
// free loopback port (--port 0, the port read back from --port-file), short keep-alives, its
// output in a log file, and the process ended (with its group) when this object goes away.

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/util/child_process.h"

namespace zh::emulator {

struct EmulatorLaunch {
  std::filesystem::path dir;      // its port file and log go here (created if missing)
  std::vector<std::string> args;  // added to its command line (--token, --challenge, ...)
  int heartbeat_ms = 200;         // keep-alives on both streams (lichess: 6000)
  std::chrono::milliseconds start_timeout{10000};
};

class LaunchedEmulator {
 public:
  // Starts it and waits until it listens. Throws std::runtime_error naming the log when it
  // exits first or does not listen in time.
  explicit LaunchedEmulator(EmulatorLaunch launch);
  LaunchedEmulator(const LaunchedEmulator&) = delete;
  LaunchedEmulator& operator=(const LaunchedEmulator&) = delete;

  int port() const { return port_; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  const std::filesystem::path& log_file() const { return log_file_; }
  ChildProcess& process() { return *process_; }

 private:
  std::filesystem::path log_file_;
  std::unique_ptr<ChildProcess> process_;
  int port_ = 0;
};

}  // namespace zh::emulator
