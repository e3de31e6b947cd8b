#pragma once
// A child process for end-to-end tests: its own process group, stdout and stderr appended to a
// log file, an explicit environment, and killed with the test process (PR_SET_PDEATHSIG) so a
// crashed or aborted test leaves no orphan behind. The destructor ends the whole group:
// SIGTERM first, SIGKILL after a grace period.

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace zh::e2e {

struct ExitStatus {
  bool exited = false;  // normal exit (then `code`)
  int code = -1;
  bool signalled = false;  // killed by a signal (then `signal`)
  int signal = 0;
  std::string describe() const;
};

class ChildProcess {
 public:
  // Starts `argv` (argv[0] is the executable path). `env_set` entries are added to (or replace
  // those of) this process's environment; `env_unset` names are removed. Throws on failure.
  ChildProcess(std::vector<std::string> argv, const std::filesystem::path& log_file,
               const std::map<std::string, std::string>& env_set = {},
               const std::vector<std::string>& env_unset = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  bool running();  // reaps the child when it has ended
  void signal(int sig);
  // Waits for the exit; nullopt when it is still running after `timeout`.
  std::optional<ExitStatus> wait_exit(std::chrono::milliseconds timeout);
  // SIGTERM, then SIGKILL to the group after `grace`; returns how the leader ended.
  ExitStatus stop(std::chrono::milliseconds grace = std::chrono::milliseconds(3000));
  // Resident set size now and its peak, from /proc (kB); 0 when unavailable.
  long rss_kb() const;
  long peak_rss_kb() const;
  const std::optional<ExitStatus>& exit_status() const { return status_; }

 private:
  void kill_group(int sig);

  pid_t pid_ = -1;
  std::optional<ExitStatus> status_;
};

// The whole content of a text file ("" when it does not exist).
std::string read_text(const std::filesystem::path& path);

}  // namespace zh::e2e
