#include "tests/emulator/server.h"

#include <chrono>
#include <stdexcept>
#include <thread>

namespace zh::emulator {

EmulatorServer::EmulatorServer(World& world) : world_(world) {
  // Every open stream holds a worker thread; the default pool (8) is too small for a bot
  // with an event stream, several game streams and its ordinary requests.
  server_.new_task_queue = [] { return new httplib::ThreadPool(64); };
  server_.set_keep_alive_timeout(30);
  // Headers and body go out as separate writes; without this, Nagle's algorithm and the
  // client's delayed ACK add ~40 ms to every response, which lichess's servers do not.
  server_.set_tcp_nodelay(true);
  add_api_routes(server_, world_);
  add_admin_routes(server_, world_, *this);
  add_explorer_routes(server_);
}

int EmulatorServer::bind(int port) {
  if (port == 0) {
    port_ = server_.bind_to_any_port("127.0.0.1");
  } else {
    port_ = server_.bind_to_port("127.0.0.1", port) ? port : -1;
  }
  if (port_ <= 0)
    throw std::runtime_error("cannot listen on 127.0.0.1:" + std::to_string(port) +
                             " (is another emulator running? try --port 0)");
  return port_;
}

void EmulatorServer::request_restart(int down_ms) { restart_down_ms_ = std::max(0, down_ms); }

void EmulatorServer::run(const std::atomic<bool>& signalled) {
  using namespace std::chrono_literals;
  for (;;) {
    std::atomic<bool> listening_ended{false};
    std::thread listener([this, &listening_ended] {
      server_.listen_after_bind();
      listening_ended = true;
    });
    while (!server_.is_running()) std::this_thread::sleep_for(5ms);
    while (!shutdown_ && !signalled && restart_down_ms_ < 0) std::this_thread::sleep_for(20ms);
    const int down_ms = restart_down_ms_.exchange(-1);
    const bool quit = shutdown_ || signalled;
    std::this_thread::sleep_for(50ms);  // let the admin reply that asked for it go out
    // Stop accepting first. The listener returns only when every worker is free, and a stream
    // holds its worker: a client may reopen one between a sever and the stop, so sever until
    // the listener is done.
    server_.stop();
    while (!listening_ended) {
      world_.sever_all_streams();
      std::this_thread::sleep_for(20ms);
    }
    listener.join();
    if (quit) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(down_ms));
    // The port was ours a moment ago; retry briefly in case the kernel still holds it.
    bool bound = false;
    for (int i = 0; i < 100 && !bound; ++i) {
      bound = server_.bind_to_port("127.0.0.1", port_);
      if (!bound) std::this_thread::sleep_for(50ms);
    }
    if (!bound)
      throw std::runtime_error("cannot listen again on 127.0.0.1:" + std::to_string(port_));
  }
  world_.shutdown();
}

}  // namespace zh::emulator
