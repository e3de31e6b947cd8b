#pragma once
// The real lichess-emulator binary as the end-to-end tests drive it: started on a free
// loopback port (--port 0 --port-file) with short heartbeats, and read through its admin API.

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/util/child_process.h"
#include "tests/e2e/harness_io.h"
#include "tests/emulator/emulator_launch.h"

namespace zh::e2e {

using Json = nlohmann::json;
using namespace std::chrono_literals;

// The token of every end-to-end run. It is what test 12 looks for in the bot's output.
inline constexpr const char* kToken = "lip_e2eSecret7QxZr9TokenK4w";

// Polls `pred` every `step` until it holds or `timeout` passes; returns its last value.
bool eventually(const std::function<bool()>& pred, std::chrono::milliseconds timeout,
                std::chrono::milliseconds step = 50ms);

class Emulator {
 public:
  // Starts the emulator with its log in `dir`; `extra_args` are added to its command line.
  explicit Emulator(const std::filesystem::path& dir, std::vector<std::string> extra_args = {});
  Emulator(const Emulator&) = delete;
  Emulator& operator=(const Emulator&) = delete;

  int port() const { return launched_.port(); }
  std::string base_url() const { return launched_.base_url(); }
  ChildProcess& process() { return launched_.process(); }

  // The admin API (no auth). Throws std::runtime_error when the request fails.
  Json get(const std::string& path);
  Json post(const std::string& path, const Json& body = Json::object());
  std::string get_text(const std::string& path);

  // Creates a challenge from a simulated user; returns its id (throws when refused).
  std::string challenge(const Json& spec);
  Json challenge_state(const std::string& id) { return get("/admin/challenge/" + id); }
  Json game(const std::string& id) { return get("/admin/games/" + id); }
  Json stats() { return get("/admin/stats"); }
  std::string pgn(const std::string& id) { return get_text("/admin/games/" + id + "/pgn"); }
  void add_faults(const Json& rules) { post("/admin/faults", rules); }

  // The game the challenge became, once accepted ("" when it was not within `timeout`).
  std::string wait_accepted(const std::string& challenge_id, std::chrono::milliseconds timeout);
  // Waits until the game is over; returns its final view (status still "started" on timeout).
  Json wait_finished(const std::string& game_id, std::chrono::milliseconds timeout);
  // Waits until the game has at least `plies` plies.
  Json wait_plies(const std::string& game_id, int plies, std::chrono::milliseconds timeout);

 private:
  emulator::LaunchedEmulator launched_;
};

bool game_over(const Json& game);

// Challenge specs (admin JSON) used by the tests.
Json engine_opponent(int skill = 0, int movetime_ms = 30);
Json challenge_spec(const std::string& user, bool bot_title, const Json& opponent, int limit_s = 60,
                    int increment_s = 0);

}  // namespace zh::e2e
