#pragma once
// The HTTP side: one httplib server on 127.0.0.1 carrying the Bot API and the admin API, and
// the run loop that can "restart" it (drop every connection, stop listening for a while,
// listen again on the same port with all games kept).

#include <httplib.h>

#include <atomic>
#include <string>

#include "tests/emulator/world.h"

namespace zh::emulator {

class EmulatorServer {
 public:
  explicit EmulatorServer(World& world);

  // Binds to 127.0.0.1:`port` (0: any free port) and returns the port; throws on failure.
  int bind(int port);
  // Serves until a shutdown is requested (admin API or signal).
  void run(const std::atomic<bool>& signalled);
  void request_restart(int down_ms);
  void request_shutdown() { shutdown_ = true; }
  int port() const { return port_; }

 private:
  World& world_;
  httplib::Server server_;
  int port_ = 0;
  std::atomic<int> restart_down_ms_{-1};
  std::atomic<bool> shutdown_{false};
};

// Route tables (api_routes.cpp, admin_routes.cpp).
void add_api_routes(httplib::Server& server, World& world);
void add_admin_routes(httplib::Server& server, World& world, EmulatorServer& control);
// A fake opening explorer for the book tests (explorer_routes.cpp).
void add_explorer_routes(httplib::Server& server);

}  // namespace zh::emulator
