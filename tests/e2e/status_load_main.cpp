// e2e-status-load: does the status page slow a move? The real daemon plays games against the
// emulator one after another, alternating: a game with nobody looking, then a game while a
// client loads /status.json (and /status every tenth time) every 100 ms, and so on. It prints
// each side's move overhead (opponent's move received to our move sent, minus the search: the
// `overhead X ms` the daemon logs for every move) and the ratio of the medians and p90s.
//   e2e-status-load --pairs 4
#include <httplib.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/e2e/bot_runner.h"
#include "tests/e2e/emulator.h"

namespace zh::e2e {
namespace {

struct LoadOptions {
  int pairs = 4;  // games without and with the page, alternating
  int refresh_ms = 100;
  std::string dir = "status-load-run";
};

// The overhead of each move the daemon logged for `game_id`.
std::vector<double> overheads(const std::string& log, const std::string& game_id) {
  std::vector<double> out;
  // Lines "[game:<id>] played <move> (... overhead <ms> ms ...)".
  const std::string played = "[game:" + game_id + "] played ";
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t at = line.find(played);
    if (at == std::string::npos) continue;
    const std::size_t o = line.find(" overhead ", at);
    if (o != std::string::npos) out.push_back(std::stod(line.substr(o + 10)));
  }
  return out;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::size_t(q * double(v.size() - 1) + 0.5)];
}

int run(const LoadOptions& o) {
  const std::filesystem::path dir = std::filesystem::absolute(o.dir);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  Emulator emu(dir);
  const int port = free_loopback_port();
  BotSettings s(emu.base_url());
  s.set_quoted("game", "pgn_dir", (dir / "pgn").string())
      .set_quoted("operations", "state_dir", (dir / "state").string())
      .set("operations", "metrics_port", std::to_string(port))
      .set("operations", "log_level", "info");
  BotProcess bot(dir, "zhbot", s, kToken);
  if (!bot.wait_log("event stream connected", 60s)) {
    std::fprintf(stderr, "e2e-status-load: the daemon did not connect; see %s\n",
                 bot.log_path().c_str());
    return 1;
  }
  std::vector<double> quiet, watched;
  long requests = 0;
  for (int i = 0; i < 2 * o.pairs; ++i) {
    const bool watching = i % 2 == 1;
    const Json opponent = engine_opponent(2, 40);
    const std::string challenge =
        emu.challenge(challenge_spec("Player" + std::to_string(i), false, opponent, 120, 1));
    const std::string game = emu.wait_accepted(challenge, 60s);
    if (game.empty()) {
      std::fprintf(stderr, "e2e-status-load: challenge %s not accepted\n", challenge.c_str());
      return 1;
    }
    std::atomic<bool> over{false};
    std::thread viewer([&] {
      if (!watching) return;
      httplib::Client client("127.0.0.1", port);
      for (int n = 0; !over; ++n) {
        const auto res = client.Get(n % 10 == 0 ? "/status" : "/status.json");
        if (res && res->status == 200) ++requests;
        std::this_thread::sleep_for(std::chrono::milliseconds(o.refresh_ms));
      }
    });
    emu.wait_finished(game, 600s);
    over = true;
    viewer.join();
    const std::vector<double> moves = overheads(bot.log(), game);
    (watching ? watched : quiet)
        .insert((watching ? watched : quiet).end(), moves.begin(), moves.end());
    std::printf("game %d %s: %zu moves, median overhead %.3f ms\n", i + 1,
                watching ? "with the page every 100 ms" : "nobody looking", moves.size(),
                quantile(moves, 0.5));
  }
  bot.terminate(5s);
  const double q50 = quantile(quiet, 0.5), w50 = quantile(watched, 0.5);
  const double q90 = quantile(quiet, 0.9), w90 = quantile(watched, 0.9);
  std::printf("nobody looking: %zu moves, overhead median %.3f ms, p90 %.3f ms\n", quiet.size(),
              q50, q90);
  std::printf("page every %d ms: %zu moves (%ld requests answered), median %.3f ms, p90 %.3f ms\n",
              o.refresh_ms, watched.size(), requests, w50, w90);
  std::printf("ratio watched / quiet: median %.2f, p90 %.2f\n", q50 > 0 ? w50 / q50 : 0,
              q90 > 0 ? w90 / q90 : 0);
  return 0;
}

}  // namespace
}  // namespace zh::e2e

int main(int argc, char** argv) {
  zh::e2e::LoadOptions o;
  CLI::App app{"e2e-status-load: move overhead with and without the status page being loaded"};
  app.add_option("--pairs", o.pairs, "games without and with the page (each)")
      ->check(CLI::Range(1, 100));
  app.add_option("--refresh-ms", o.refresh_ms, "how often the page is loaded")
      ->check(CLI::Range(10, 10000));
  app.add_option("--dir", o.dir, "where the run's files go");
  CLI11_PARSE(app, argc, argv);
  return zh::e2e::run(o);
}
