#pragma once
// A child program spoken to line by line over pipes (a UCI engine, `gzip -dc`). The child
// gets no environment variable whose name contains "TOKEN" (a lichess token must never reach
// a program zhbot starts) and is killed when this object goes away.

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace zh::datagen {

class ChildError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ChildProcess {
 public:
  // argv[0] is the program path. Throws ChildError when it cannot be started.
  explicit ChildProcess(std::vector<std::string> argv);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes text + '\n'; false when the child no longer reads (it exited).
  bool write_line(const std::string& text);
  enum class ReadStatus { kLine, kTimeout, kEnd };
  // Reads one line (without '\n') into `line`; kEnd when the child closed its output.
  ReadStatus read_line(std::string& line, std::chrono::milliseconds timeout);
  // Closes the child's input (it sees end of file).
  void close_input();
  // Kills the child (SIGKILL) and reaps it.
  void kill();
  // Waits for the child to exit (after its output ended) and returns its exit status
  // (128 + signal when a signal ended it).
  int wait_exit();
  pid_t pid() const { return pid_; }
  const std::string& program() const { return program_; }

 private:
  std::string program_;
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string buffer_;
};

// The environment a child gets: the parent's, less every variable whose name has "TOKEN".
std::vector<std::string> child_environment();

}  // namespace zh::datagen
