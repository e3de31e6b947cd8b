#include "tests/emulator/emulator_launch.h"

#include <fstream>
#include <stdexcept>
#include <thread>

#include "tests/support/test_paths.h"

namespace zh::emulator {
namespace {

// The port it wrote (0 until then). It writes the file whole, by renaming it into place.
int port_in(const std::filesystem::path& file) {
  std::ifstream in(file);
  int port = 0;
  return in >> port ? port : 0;
}

}  // namespace

LaunchedEmulator::LaunchedEmulator(EmulatorLaunch launch) : log_file_(launch.dir / "emulator.log") {
  std::filesystem::create_directories(launch.dir);
  const std::filesystem::path port_file = launch.dir / "emulator.port";
  std::filesystem::remove(port_file);
  std::vector<std::string> argv = {zh::test::emulator_bin(),
                                   "--port",
                                   "0",
                                   "--port-file",
                                   port_file.string(),
                                   "--heartbeat-ms",
                                   std::to_string(launch.heartbeat_ms)};
  argv.insert(argv.end(), launch.args.begin(), launch.args.end());
  ChildOptions options;
  options.log_file = log_file_;
  options.own_group = true;  // ended as a whole, and with this process
  process_ = std::make_unique<ChildProcess>(argv, options);
  const auto deadline = std::chrono::steady_clock::now() + launch.start_timeout;
  while ((port_ = port_in(port_file)) == 0) {
    if (!process_->running())
      throw std::runtime_error("lichess-emulator exited at start; see " + log_file_.string());
    if (std::chrono::steady_clock::now() >= deadline)
      throw std::runtime_error("lichess-emulator did not start listening; see " +
                               log_file_.string());
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace zh::emulator
