#include "engine/util/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

#include "engine/util/clock.h"

extern char** environ;

namespace zh {
namespace {

ExitStatus from_siginfo(const siginfo_t& info) {
  ExitStatus s;
  if (info.si_code == CLD_EXITED) {
    s.exited = true;
    s.code = info.si_status;
  } else {
    s.signalled = true;
    s.signal = info.si_status;
  }
  return s;
}

// The executable for `name`: itself when it has a '/', else the first match in PATH.
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

long proc_status_kb(pid_t pid, const std::string& key) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key + ":", 0) == 0) {
      std::istringstream fields(line.substr(key.size() + 1));
      long kb = 0;
      fields >> kb;
      return kb;
    }
  }
  return 0;
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

std::string ExitStatus::describe() const {
  if (exited) return "exit code " + std::to_string(code);
  if (signalled) return std::string("signal ") + strsignal(signal);
  return "still running";
}

std::vector<std::string> child_environment(const std::map<std::string, std::string>& set,
                                           const std::vector<std::string>& unset) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    bool drop = name.find("TOKEN") != std::string::npos || set.count(name) > 0;
    for (const auto& u : unset) drop = drop || u == name;
    if (!drop) env.push_back(entry);
  }
  for (const auto& [k, v] : set) env.push_back(k + "=" + v);
  return env;
}

ChildProcess::ChildProcess(std::vector<std::string> argv, ChildOptions options)
    : program_(argv.at(0)), options_(std::move(options)) {
  // A child that dies must not kill us with SIGPIPE on the next write.
  ::signal(SIGPIPE, SIG_IGN);
  // Everything the child needs is prepared before fork(): only async-signal-safe calls after.
  const std::string exe = find_program(program_);
  if (exe.empty()) throw ChildError("cannot start '" + program_ + "': not found in PATH");
  std::vector<std::string> env_s = child_environment(options_.env_set, options_.env_unset);
  std::vector<char*> args, env;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  for (auto& e : env_s) env.push_back(e.data());
  env.push_back(nullptr);

  const bool piped = options_.log_file.empty();
  int in_pipe[2] = {-1, -1}, out_pipe[2] = {-1, -1}, exec_pipe[2] = {-1, -1};
  int log_fd = -1, null_fd = -1;
  auto close_all = [&] {
    for (int* fd : {&in_pipe[0], &in_pipe[1], &out_pipe[0], &out_pipe[1], &exec_pipe[0],
                    &exec_pipe[1], &log_fd, &null_fd})
      close_fd(*fd);
  };
  bool ok = ::pipe2(exec_pipe, O_CLOEXEC) == 0;
  if (ok && piped) {
    ok = ::pipe2(in_pipe, O_CLOEXEC) == 0 && ::pipe2(out_pipe, O_CLOEXEC) == 0;
  } else if (ok) {
    log_fd = ::open(options_.log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    ok = log_fd >= 0 && null_fd >= 0;
  }
  if (!ok) {
    const std::string why = std::strerror(errno);
    close_all();
    throw ChildError(
        "cannot start '" + program_ +
        "': " + (piped ? "no pipe: " : "cannot open " + options_.log_file.string() + ": ") + why);
  }
  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ < 0) {
    const std::string why = std::strerror(errno);
    close_all();
    throw ChildError("cannot start '" + program_ + "': fork failed: " + why);
  }
  if (pid_ == 0) {
    ::signal(SIGPIPE, SIG_DFL);  // ours is ignored; the program gets the usual behaviour
    if (options_.own_group) {
      ::setpgid(0, 0);
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(127);  // the parent died between fork and prctl
    }
    if (piped) {
      ::dup2(in_pipe[0], 0);
      ::dup2(out_pipe[1], 1);
    } else {
      ::dup2(null_fd, 0);
      ::dup2(log_fd, 1);
      ::dup2(log_fd, 2);
    }
    ::execve(exe.c_str(), args.data(), env.data());
    const int error = errno;
    [[maybe_unused]] auto n = ::write(exec_pipe[1], &error, sizeof error);
    ::_exit(127);
  }
  if (options_.own_group) ::setpgid(pid_, pid_);  // the group exists before we signal it
  to_child_ = std::exchange(in_pipe[1], -1);
  from_child_ = std::exchange(out_pipe[0], -1);
  close_fd(exec_pipe[1]);
  // The exec pipe closes without a byte when execve succeeded; else it carries errno.
  int error = 0;
  ssize_t n;
  while ((n = ::read(exec_pipe[0], &error, sizeof error)) < 0 && errno == EINTR) {
  }
  close_all();
  if (n == ssize_t(sizeof error)) {
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
    close_fd(to_child_);
    close_fd(from_child_);
    throw ChildError("cannot start '" + program_ + "': " + std::strerror(error));
  }
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !status_) {
    if (to_child_ >= 0) {
      close_input();
      wait_exit(std::chrono::milliseconds(200));  // a moment to leave on its own ("quit")
    }
    if (running()) stop();
  }
  close_fd(to_child_);
  close_fd(from_child_);
}

bool ChildProcess::write_line(const std::string& text) {
  if (to_child_ < 0) return false;
  std::string data = text + "\n";
  const char* p = data.data();
  std::size_t left = data.size();
  while (left > 0) {
    const ssize_t n = ::write(to_child_, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= std::size_t(n);
  }
  return true;
}

ChildProcess::ReadStatus ChildProcess::read_line(std::string& line,
                                                 std::chrono::milliseconds timeout) {
  // The timeout counts the time this process waited, in short polls, not the wall clock: a job
  // stopped with SIGSTOP and continued (tools/measure/quiet.sh pausing the lab for a timed
  // match) finds its poll's wall-clock deadline long past, and must not take a child that was
  // stopped with it for one that stopped answering. A poll that spanned a stop counts as one
  // slice.
  constexpr std::chrono::milliseconds kSlice{100};
  std::chrono::nanoseconds left = timeout;
  for (;;) {
    const auto nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      line = buffer_.substr(0, nl);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      buffer_.erase(0, nl + 1);
      return ReadStatus::kLine;
    }
    if (from_child_ < 0) return ReadStatus::kEnd;
    if (left.count() <= 0) return ReadStatus::kTimeout;
    const auto slice = std::min<std::chrono::nanoseconds>(left, kSlice);
    const auto start = zh::steady_clock().now();
    pollfd fd{from_child_, POLLIN, 0};
    const int ready =
        ::poll(&fd, 1, int(std::chrono::ceil<std::chrono::milliseconds>(slice).count()));
    const int poll_error = errno;
    left -= std::min<std::chrono::nanoseconds>(slice, zh::steady_clock().now() - start);
    if (ready == 0 || (ready < 0 && poll_error == EINTR)) continue;  // the budget decides
    char chunk[65536];
    const ssize_t n = ::read(from_child_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close_fd(from_child_);
      if (!buffer_.empty()) {  // a last line without '\n'
        line = std::move(buffer_);
        buffer_.clear();
        return ReadStatus::kLine;
      }
      return ReadStatus::kEnd;
    }
    buffer_.append(chunk, std::size_t(n));
  }
}

void ChildProcess::close_input() { close_fd(to_child_); }

bool ChildProcess::running() {
  if (pid_ <= 0 || status_) return false;
  // WNOWAIT leaves the leader a zombie, so its process group id cannot be reused while we
  // SIGKILL what it left in the group; then it is reaped.
  siginfo_t info{};
  if (::waitid(P_PID, id_t(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    status_ = ExitStatus{};
    return false;
  }
  if (info.si_pid != pid_) return true;
  status_ = from_siginfo(info);
  if (options_.own_group) ::kill(-pid_, SIGKILL);
  int st = 0;
  ::waitpid(pid_, &st, 0);
  return false;
}

void ChildProcess::signal(int sig) {
  if (running()) ::kill(pid_, sig);
}

void ChildProcess::kill_all(int sig) {
  if (running()) ::kill(options_.own_group ? -pid_ : pid_, sig);
}

std::optional<ExitStatus> ChildProcess::wait_exit(std::chrono::milliseconds timeout) {
  const auto deadline = zh::steady_clock().now() + timeout;
  while (running()) {
    if (zh::steady_clock().now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return status_.value_or(ExitStatus{});
}

ExitStatus ChildProcess::wait_exit() {
  close_input();
  if (running()) {
    siginfo_t info{};
    while (::waitid(P_PID, id_t(pid_), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
    }
    running();  // reaps it
  }
  return status_.value_or(ExitStatus{});
}

ExitStatus ChildProcess::stop(std::chrono::milliseconds grace) {
  if (running()) {
    ::kill(pid_, SIGTERM);
    if (!wait_exit(grace)) {
      kill_all(SIGKILL);
      wait_exit();
    }
  }
  return status_.value_or(ExitStatus{});
}

void ChildProcess::kill() {
  kill_all(SIGKILL);
  wait_exit();
}

long ChildProcess::rss_kb() const { return proc_status_kb(pid_, "VmRSS"); }
long ChildProcess::peak_rss_kb() const { return proc_status_kb(pid_, "VmHWM"); }

}  // namespace zh
