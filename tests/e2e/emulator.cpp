#include "tests/e2e/emulator.h"

#include <httplib.h>

#include <stdexcept>
#include <thread>

#include "tests/support/test_paths.h"

namespace zh::e2e {

bool eventually(const std::function<bool()>& pred, std::chrono::milliseconds timeout,
                std::chrono::milliseconds step) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (pred()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(step);
  }
}

Emulator::Emulator(const std::filesystem::path& dir, std::vector<std::string> extra_args)
    : launched_([&] {
        std::vector<std::string> args = {"--token", kToken, "--log-requests"};
        args.insert(args.end(), extra_args.begin(), extra_args.end());
        return emulator::EmulatorLaunch{.dir = dir, .args = std::move(args)};
      }()) {}

Json Emulator::get(const std::string& path) { return Json::parse(get_text(path)); }

std::string Emulator::get_text(const std::string& path) {
  httplib::Client c("127.0.0.1", port());
  c.set_read_timeout(10, 0);
  auto r = c.Get(path.c_str());
  if (!r) throw std::runtime_error("admin GET " + path + " failed");
  return r->body;
}

Json Emulator::post(const std::string& path, const Json& body) {
  httplib::Client c("127.0.0.1", port());
  c.set_read_timeout(10, 0);
  auto r = c.Post(path.c_str(), body.dump(), "application/json");
  if (!r) throw std::runtime_error("admin POST " + path + " failed");
  if (r->body.empty()) return Json::object();
  return Json::parse(r->body);
}

std::string Emulator::challenge(const Json& spec) {
  const Json c = post("/admin/challenge", spec);
  if (!c.contains("id")) throw std::runtime_error("challenge refused: " + c.dump());
  return c["id"];
}

std::string Emulator::wait_accepted(const std::string& challenge_id,
                                    std::chrono::milliseconds timeout) {
  std::string game_id;
  eventually(
      [&] {
        const Json c = challenge_state(challenge_id);
        if (c.contains("gameId") && c["gameId"].is_string()) game_id = c["gameId"];
        return !game_id.empty() || c.value("status", "") == "declined";
      },
      timeout);
  return game_id;
}

bool game_over(const Json& game) {
  const std::string s = game.value("status", "");
  return s != "created" && s != "started" && !s.empty();
}

Json Emulator::wait_finished(const std::string& game_id, std::chrono::milliseconds timeout) {
  Json g;
  eventually(
      [&] {
        g = game(game_id);
        return game_over(g);
      },
      timeout, 100ms);
  return g;
}

Json Emulator::wait_plies(const std::string& game_id, int plies,
                          std::chrono::milliseconds timeout) {
  Json g;
  eventually(
      [&] {
        g = game(game_id);
        return g.value("plies", 0) >= plies || game_over(g);
      },
      timeout, 20ms);
  return g;
}

Json engine_opponent(int skill, int movetime_ms) {
  return {{"type", "engine"}, {"skill", skill}, {"movetime_ms", movetime_ms}};
}

Json challenge_spec(const std::string& user, bool bot_title, const Json& opponent, int limit_s,
                    int increment_s) {
  Json u = {{"name", user}, {"rating", 1600}};
  if (bot_title) u["title"] = "BOT";
  return {{"user", u},          {"variant", "crazyhouse"},
          {"limit_s", limit_s}, {"increment_s", increment_s},
          {"rated", false},     {"opponent", opponent}};
}

}  // namespace zh::e2e
