#include "tests/emulator/uci_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace zh::emulator {

UciProcess::UciProcess(const std::string& path) {
  int in_pipe[2];
  int out_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0 || pipe2(out_pipe, O_CLOEXEC) != 0)
    throw std::runtime_error("cannot create pipes for the UCI engine: " +
                             std::string(std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  char* argv[] = {const_cast<char*>(path.c_str()), nullptr};
  const int rc = posix_spawn(&pid_, path.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(in_pipe[0]);
  close(out_pipe[1]);
  to_child_ = in_pipe[1];
  from_child_ = out_pipe[0];
  if (rc != 0) {
    close(to_child_);
    close(from_child_);
    throw std::runtime_error("cannot start the UCI engine '" + path + "': " + std::strerror(rc) +
                             " (install fairy-stockfish or pass --engine)");
  }
}

UciProcess::~UciProcess() {
  if (pid_ <= 0) return;
  // Ask politely, then insist: a stuck engine must not outlive its game.
  (void)::write(to_child_, "quit\n", 5);
  close(to_child_);
  for (int i = 0; i < 50; ++i) {
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
      close(from_child_);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  close(from_child_);
}

void UciProcess::send(const std::string& line) {
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(to_child_, text.data() + done, text.size() - done);
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      throw std::runtime_error("the UCI engine closed its input");
    }
    done += std::size_t(n);
  }
}

bool UciProcess::read_line(std::string& line, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    const auto nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      line = buffer_.substr(0, nl);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      buffer_.erase(0, nl + 1);
      return true;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd pfd{from_child_, POLLIN, 0};
    const int ready = poll(&pfd, 1, int(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return false;
    char chunk[4096];
    const ssize_t n = ::read(from_child_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("the UCI engine exited");
    buffer_.append(chunk, std::size_t(n));
  }
}

std::string UciProcess::read_until(std::string_view prefix, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string line;
  while (read_line(line, deadline))
    if (line.rfind(prefix, 0) == 0) return line;
  throw std::runtime_error("the UCI engine did not answer '" + std::string(prefix) + "' in time");
}

}  // namespace zh::emulator
