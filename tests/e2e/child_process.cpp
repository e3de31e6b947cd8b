#include "tests/e2e/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace zh::e2e {
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

std::vector<std::string> build_env(const std::map<std::string, std::string>& set,
                                   const std::vector<std::string>& unset) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    bool drop = set.count(name) > 0;
    for (const auto& u : unset) drop = drop || u == name;
    if (!drop) env.push_back(entry);
  }
  for (const auto& [k, v] : set) env.push_back(k + "=" + v);
  return env;
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

}  // namespace

std::string ExitStatus::describe() const {
  if (exited) return "exit code " + std::to_string(code);
  if (signalled) return std::string("signal ") + strsignal(signal);
  return "still running";
}

ChildProcess::ChildProcess(std::vector<std::string> argv, const std::filesystem::path& log_file,
                           const std::map<std::string, std::string>& env_set,
                           const std::vector<std::string>& env_unset) {
  ::signal(SIGPIPE, SIG_IGN);
  // Everything the child needs is prepared before fork(): only async-signal-safe calls after.
  std::vector<std::string> env_s = build_env(env_set, env_unset);
  std::vector<char*> args, env;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  for (auto& e : env_s) env.push_back(e.data());
  env.push_back(nullptr);
  const int log_fd = ::open(log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (log_fd < 0) throw std::runtime_error("cannot open log file " + log_file.string());
  const pid_t parent = getpid();
  pid_ = fork();
  if (pid_ < 0) {
    ::close(log_fd);
    throw std::runtime_error("fork failed: " + std::string(strerror(errno)));
  }
  if (pid_ == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the test died between fork and prctl
    const int null_fd = ::open("/dev/null", O_RDONLY);
    dup2(null_fd, 0);
    dup2(log_fd, 1);
    dup2(log_fd, 2);
    execve(args[0], args.data(), env.data());
    const char msg[] = "e2e: exec failed\n";
    [[maybe_unused]] auto n = ::write(2, msg, sizeof msg - 1);
    _exit(127);
  }
  setpgid(pid_, pid_);  // also from the parent, so the group exists before we signal it
  ::close(log_fd);
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !status_) stop();
}

bool ChildProcess::running() {
  if (status_) return false;
  // WNOWAIT leaves the leader a zombie, so its process group id cannot be reused while we
  // SIGKILL what it left in the group (engine children); then it is reaped.
  siginfo_t info{};
  if (waitid(P_PID, id_t(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    status_ = ExitStatus{};
    return false;
  }
  if (info.si_pid != pid_) return true;
  status_ = from_siginfo(info);
  ::kill(-pid_, SIGKILL);
  int st = 0;
  waitpid(pid_, &st, 0);
  return false;
}

void ChildProcess::signal(int sig) {
  if (running()) ::kill(pid_, sig);
}

void ChildProcess::kill_group(int sig) {
  if (running()) ::kill(-pid_, sig);
}

std::optional<ExitStatus> ChildProcess::wait_exit(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (running()) {
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return status_;
}

ExitStatus ChildProcess::stop(std::chrono::milliseconds grace) {
  if (running()) {
    ::kill(pid_, SIGTERM);
    if (!wait_exit(grace)) {
      kill_group(SIGKILL);
      wait_exit(std::chrono::milliseconds(10000));
    }
  }
  return status_.value_or(ExitStatus{});
}

long ChildProcess::rss_kb() const { return proc_status_kb(pid_, "VmRSS"); }
long ChildProcess::peak_rss_kb() const { return proc_status_kb(pid_, "VmHWM"); }

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace zh::e2e
