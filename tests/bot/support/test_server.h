#pragma once
// A real HTTP server on 127.0.0.1 with an ephemeral port, for tests of the libcurl layer.
// Handlers are registered before start(); the destructor stops the server and joins it.

#include <httplib.h>

#include <chrono>
#include <string>
#include <thread>

namespace zh::bot::test {

class TestServer {
 public:
  TestServer() = default;
  ~TestServer() { stop(); }
  TestServer(const TestServer&) = delete;
  TestServer& operator=(const TestServer&) = delete;

  httplib::Server& server() { return server_; }

  void start() {
    // Without it, small responses wait ~40 ms for delayed ACKs and timings mean nothing.
    server_.set_tcp_nodelay(true);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    // stop() is a no-op until the listen loop runs, so wait for it.
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  void stop() {
    if (thread_.joinable()) {
      server_.stop();
      thread_.join();
    }
  }
  int port() const { return port_; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace zh::bot::test
