// lichess-emulator-launch: the emulator started the one way (emulator_launch.h), for scripts
// (the offline demo). Prints the port once the emulator listens, then keeps it running until
// its standard input ends or it gets SIGTERM or SIGINT, and ends it.
//   lichess-emulator-launch --dir DIR [--heartbeat-ms N] [-- EMULATOR-ARGS...]
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <thread>

#include "tests/emulator/emulator_launch.h"

int main(int argc, char** argv) {
  CLI::App app{"lichess-emulator-launch - start the lichess emulator, print its port"};
  zh::emulator::EmulatorLaunch launch;
  std::string dir;
  app.add_option("--dir", dir, "folder for its port file and log (emulator.log)")->required();
  app.add_option("--heartbeat-ms", launch.heartbeat_ms, "keep-alive interval on both streams")
      ->capture_default_str();
  app.add_option("args", launch.args, "the emulator's own options (after --)");
  CLI11_PARSE(app, argc, argv);
  launch.dir = dir;
  try {
    zh::emulator::LaunchedEmulator emulator(launch);
    // Only now: the emulator must not inherit these signals blocked.
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, nullptr);
    std::cout << emulator.port() << std::endl;
    std::thread([] {
      while (std::cin.get() != EOF) {
      }
      kill(getpid(), SIGTERM);  // to the process: the main thread's sigwait takes it
    }).detach();
    int signal = 0;
    sigwait(&stop, &signal);
  } catch (const std::exception& e) {
    std::cerr << "lichess-emulator-launch: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
