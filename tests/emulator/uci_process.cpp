#include "tests/emulator/uci_process.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <vector>

namespace zh::emulator {

UciProcess::UciProcess(const std::string& path) {
  try {
    child_ = std::make_unique<ChildProcess>(std::vector<std::string>{path});
  } catch (const ChildError& e) {
    throw std::runtime_error(std::string("the UCI engine: ") + e.what() +
                             " (install fairy-stockfish or pass --engine)");
  }
}

UciProcess::~UciProcess() {
  // Ask politely; the child process object insists (kills it) if the engine lingers.
  child_->write_line("quit");
}

void UciProcess::send(const std::string& line) {
  if (!child_->write_line(line)) throw std::runtime_error("the UCI engine closed its input");
}

std::string UciProcess::read_until(std::string_view prefix, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string line;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    const auto status = child_->read_line(line, std::max(left, std::chrono::milliseconds(0)));
    if (status == ChildProcess::ReadStatus::kEnd) throw std::runtime_error("the UCI engine exited");
    if (status == ChildProcess::ReadStatus::kTimeout)
      throw std::runtime_error("the UCI engine did not answer '" + std::string(prefix) +
                               "' in time");
    if (line.rfind(prefix, 0) == 0) return line;
  }
}

}  // namespace zh::emulator
