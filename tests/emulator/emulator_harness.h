#pragma once
// Test support: starts the real lichess-emulator binary on a free loopback port and talks to it
// as a bot would (Bearer requests, NDJSON streams read in the background) and as a test would
// (the admin API).

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/emulator/emulator_launch.h"

namespace zh::emulator::test {

inline constexpr const char* kToken = "lip_emulator_token";
using Json = nlohmann::json;
using namespace std::chrono_literals;

class EmulatorProcess {
 public:
  // Starts the emulator with `args` added, its log in a folder of the working directory (the
  // build) that goes with it; waits until it listens. Throws on failure.
  explicit EmulatorProcess(std::vector<std::string> args = {});
  ~EmulatorProcess();
  EmulatorProcess(const EmulatorProcess&) = delete;
  EmulatorProcess& operator=(const EmulatorProcess&) = delete;

  int port() const { return port_; }

  // --- the bot's side (Bearer token) ---
  httplib::Result get(const std::string& path, const std::string& token = kToken);
  httplib::Result post(const std::string& path, const std::string& form = "",
                       const std::string& token = kToken);
  // --- the admin API ---
  Json admin_get(const std::string& path);
  Json admin_post(const std::string& path, const Json& body = Json::object());
  std::string admin_text(const std::string& path);
  // Polls GET /admin/games/{id} until `pred` holds or `timeout` passes; returns the last view.
  Json wait_game(const std::string& id, const std::function<bool(const Json&)>& pred,
                 std::chrono::milliseconds timeout = 5s);

 private:
  std::filesystem::path dir_;
  std::unique_ptr<LaunchedEmulator> launched_;
  int port_ = 0;
};

// An NDJSON stream read on a background thread, as the bot's stream reader would. The
// constructor returns once the response headers arrived (or the connection failed).
class NdjsonStream {
 public:
  NdjsonStream(int port, std::string path, std::string user_agent = "zhbot-test/1.0",
               std::string token = kToken);
  ~NdjsonStream();
  NdjsonStream(const NdjsonStream&) = delete;
  NdjsonStream& operator=(const NdjsonStream&) = delete;

  // The first JSON line (after those already taken by earlier waits) satisfying `pred`. The
  // default bound only ends a wait for something that never comes: a Fairy-Stockfish opponent
  // started on a loaded 2-core machine has taken more than 5 s to answer its first move.
  std::optional<Json> wait_for(const std::function<bool(const Json&)>& pred,
                               std::chrono::milliseconds timeout = 30s);
  std::optional<Json> wait_type(const std::string& type, std::chrono::milliseconds timeout = 30s);
  // Waits until the response is over; true when it ended (cleanly or not) in time.
  bool wait_ended(std::chrono::milliseconds timeout = 30s);
  bool ended_cleanly() const;  // the server closed it properly (200 and a complete body)
  int status() const;          // HTTP status (0 until known or when the connection broke)
  int heartbeats() const;
  int bad_lines() const;  // lines that are not JSON (garbage, truncated)
  std::vector<Json> json_lines() const;

 private:
  void on_data(const char* data, std::size_t n);

  httplib::Client client_;
  std::thread thread_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::string partial_;
  std::vector<Json> lines_;
  std::size_t taken_ = 0;
  int heartbeats_ = 0;
  int bad_lines_ = 0;
  int status_ = 0;
  bool ended_ = false;
  bool clean_ = false;
  std::atomic<bool> stop_{false};
};

// Creates a challenge from a simulated user (admin JSON), sees it on `events`, accepts it and
// waits for its gameStart; returns the game id. Throws when any step fails.
std::string accept_new_challenge(EmulatorProcess& emu, NdjsonStream& events, const Json& spec);

// Polls `pred` for up to 30 s (real time): an event the test waits for, not a time it measures.
bool within_30s(const std::function<bool()>& pred);

// The bot's stand-in mover: a random legal move in the position after `moves` (lichess text).
std::string random_legal_move(const std::string& moves, unsigned seed);

}  // namespace zh::emulator::test
