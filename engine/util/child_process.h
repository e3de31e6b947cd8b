#pragma once
// A program zhbot starts: a UCI engine or `gzip -dc` spoken to line by line over pipes (datagen,
// the emulator's opponents), or a process whose output goes to a log file (the end-to-end
// tests' zhbot and emulator). One class for both, so the rules hold everywhere:
//  - the child gets no environment variable whose name contains "TOKEN" (a lichess token must
//    never reach a program zhbot starts); one the caller sets explicitly is the exception;
//  - it is ended when this object goes away: its input closed, a moment to leave, SIGTERM,
//    SIGKILL after a grace period;
//  - optionally (test harnesses) it leads a process group of its own, ended as a whole, and is
//    killed when this process dies (PR_SET_PDEATHSIG), so nothing is left behind.

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace zh {

class ChildError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ExitStatus {
  bool exited = false;  // normal exit (then `code`)
  int code = -1;
  bool signalled = false;  // killed by a signal (then `signal`)
  int signal = 0;
  bool success() const { return exited && code == 0; }
  std::string describe() const;  // "exit code 3", "signal Killed"
};

struct ChildOptions {
  // Empty: the child's stdin and stdout are pipes to this object (write_line, read_line) and
  // its stderr is ours. Set: stdin is /dev/null, stdout and stderr are appended to this file.
  std::filesystem::path log_file;
  std::map<std::string, std::string> env_set;  // added to, or replacing, what it inherits
  std::vector<std::string> env_unset;
  bool own_group = false;                 // a process group of its own, dying with this process
  std::chrono::milliseconds grace{3000};  // between SIGTERM and SIGKILL when it is ended
};

// The environment a child gets: ours less every variable whose name has "TOKEN", less `unset`,
// plus `set`.
std::vector<std::string> child_environment(const std::map<std::string, std::string>& set = {},
                                           const std::vector<std::string>& unset = {});

class ChildProcess {
 public:
  // argv[0] is the program, a path or a name looked up in PATH. Throws ChildError when it
  // cannot be started.
  explicit ChildProcess(std::vector<std::string> argv, ChildOptions options = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // --- with pipes (no log file) ---
  // Writes text + '\n'; false when the child no longer reads (it exited).
  bool write_line(const std::string& text);
  enum class ReadStatus { kLine, kTimeout, kEnd };
  // Reads one line (without '\n') into `line`; kEnd when the child closed its output.
  ReadStatus read_line(std::string& line, std::chrono::milliseconds timeout);
  void close_input();  // the child sees end of file

  // --- its life ---
  bool running();  // reaps the child when it has ended
  void signal(int sig);
  // Waits for the exit; nullopt when it is still running after `timeout`.
  std::optional<ExitStatus> wait_exit(std::chrono::milliseconds timeout);
  ExitStatus wait_exit();  // until it exits
  // SIGTERM, then SIGKILL (to the group, if it has one) after the grace period.
  ExitStatus stop() { return stop(options_.grace); }
  ExitStatus stop(std::chrono::milliseconds grace);
  void kill();  // SIGKILL now
  const std::optional<ExitStatus>& exit_status() const { return status_; }

  // Resident set size now and its peak, from /proc (kB); 0 when unavailable.
  long rss_kb() const;
  long peak_rss_kb() const;
  const std::string& program() const { return program_; }
  pid_t pid() const { return pid_; }

 private:
  void kill_all(int sig);

  std::string program_;
  ChildOptions options_;
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string buffer_;
  std::optional<ExitStatus> status_;
};

}  // namespace zh
