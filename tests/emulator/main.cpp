// lichess-emulator: a local lichess.org speaking the Bot API on 127.0.0.1, for tests, the soak
// run and the offline demo. See README.md in this folder.
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "tests/emulator/server.h"

namespace {

std::atomic<bool> g_signalled{false};

void on_signal(int) { g_signalled = true; }

nlohmann::json json_arg(const std::string& text, const std::string& what) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(what + " is not valid JSON: " + e.what());
  }
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

int main(int argc, char** argv) {
  using namespace zh::emulator;
  CLI::App app{"lichess-emulator - a local lichess Bot API server on 127.0.0.1"};
  WorldOptions o;
  int port = 0;
  std::string port_file;
  std::string faults_arg;
  std::vector<std::string> challenges;
  std::vector<std::string> users;
  bool not_bot = false;
  app.add_option("--port", port, "TCP port on 127.0.0.1 (0: any free port)")->capture_default_str();
  app.add_option("--port-file", port_file, "write the chosen port to this file once listening");
  app.add_option("--token", o.tokens, "accepted Bearer token (repeatable)")->capture_default_str();
  app.add_option("--bot-name", o.bot.name, "the bot account's username")->capture_default_str();
  app.add_option("--bot-rating", o.bot.rating, "the bot account's crazyhouse rating")
      ->capture_default_str();
  app.add_flag("--not-bot", not_bot,
               "start as a normal account (test POST /api/bot/account/upgrade)");
  app.add_option("--heartbeat-ms", o.heartbeat_ms,
                 "keep-alive interval on both streams (lichess: 6000)")
      ->capture_default_str()
      ->check(CLI::Range(10, 600'000));
  app.add_option("--first-move-ms", o.first_move_ms, "time for each side's first move (expiration)")
      ->capture_default_str();
  app.add_option("--challenge-ttl-ms", o.challenge_ttl_ms,
                 "unanswered challenges expire after this")
      ->capture_default_str();
  app.add_option("--bot-games-per-day", o.bot_games_per_day,
                 "bot-vs-bot games the bot may start; then 429 bot.vsBot.day (lichess: 100)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000));
  app.add_option("--engine", o.engine_path, "UCI engine for 'engine' opponents")
      ->capture_default_str();
  app.add_option("--seed", o.seed, "seed for ids, colours, random movers and faults")
      ->capture_default_str();
  app.add_option("--faults", faults_arg,
                 "fault rules: JSON (an array, one rule, or {seed, rules}) or @file.json");
  app.add_option(
      "--challenge", challenges,
      "a challenge (admin JSON) issued when the bot opens its event stream (repeatable)");
  app.add_option("--user", users,
                 "a simulated user (admin JSON) the bot may challenge (repeatable)");
  app.add_flag("--log-requests", o.echo_requests, "print every request to stderr");
  CLI11_PARSE(app, argc, argv);

  try {
    o.bot.id = o.bot.name;
    for (char& c : o.bot.id) c = char(std::tolower(static_cast<unsigned char>(c)));
    o.bot.title = not_bot ? "" : "BOT";
    for (const auto& c : challenges) o.startup_challenges.push_back(json_arg(c, "--challenge"));

    std::signal(SIGPIPE, SIG_IGN);  // a client that hangs up must not kill the server
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);

    World world(o);
    for (const auto& u : users) world.admin_add_user(json_arg(u, "--user"));
    if (!faults_arg.empty()) {
      const std::string text = faults_arg[0] == '@' ? read_file(faults_arg.substr(1)) : faults_arg;
      nlohmann::json j = json_arg(text, "--faults");
      if (j.is_object() && j.contains("seed"))
        world.faults().reseed(j["seed"].get<std::uint64_t>());
      const nlohmann::json rules =
          j.is_array() ? j : (j.contains("rules") ? j["rules"] : nlohmann::json::array({j}));
      for (const auto& r : rules) world.faults().add(fault_rule_from_json(r));
    }
    EmulatorServer server(world);
    const int bound = server.bind(port);
    if (!port_file.empty()) {
      std::ofstream(port_file + ".tmp") << bound << "\n";
      std::rename((port_file + ".tmp").c_str(), port_file.c_str());  // readers never see half
    }
    std::cout << "lichess-emulator listening on http://127.0.0.1:" << bound << std::endl;
    server.run(g_signalled);
  } catch (const std::exception& e) {
    std::cerr << "lichess-emulator: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
