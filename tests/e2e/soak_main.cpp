// e2e-soak: plays N games between the real daemon and the emulator, three at a time, with
// random faults at every layer (HTTP errors and rate limits, dropped, truncated, garbled and
// duplicated stream lines, stream blips, whole-server restarts), and prints one table.
// `make soak GAMES=N`; exit code 0 only when every failure column is zero.
#include <signal.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "tests/e2e/bot_runner.h"
#include "tests/e2e/emulator.h"
#include "tests/e2e/pgn_check.h"

namespace zh::e2e {
namespace {

using Clock = std::chrono::steady_clock;

struct SoakOptions {
  int games = 50;
  int concurrency = 3;
  unsigned seed = 1;
  double fault_rate = 1.0;  // scales every fault probability
  std::string dir = "soak-run";
  int game_timeout_s = 300;
  std::string log_level = "info";  // debug adds the daemon's move overhead breakdown
};

// Every layer: the API calls, both streams, the network (blips) and the server (restarts).
Json fault_rules(double k) {
  auto p = [k](double x) { return std::min(1.0, x * k); };
  return Json::array({
      {{"target", "stream"},
       {"garbage_probability", p(0.02)},
       {"unknown_probability", p(0.02)},
       {"duplicate_probability", p(0.02)},
       {"count", 0}},
      {{"target", "game_stream"}, {"drop_probability", p(0.01)}, {"count", 0}},
      {{"target", "game_stream"},
       {"truncate_after_lines", 4},
       {"probability", p(0.1)},
       {"count", 0}},
      {{"target", "event_stream"}, {"status", 503}, {"probability", p(0.1)}, {"count", 0}},
      {{"target", "game_stream"}, {"status", 502}, {"probability", p(0.05)}, {"count", 0}},
      {{"target", "move"}, {"status", 502}, {"probability", p(0.02)}, {"count", 0}},
      {{"target", "move"},
       {"status", 429},
       {"ratelimit_seconds", 1},
       {"probability", p(0.005)},
       {"count", 0}},
      {{"target", "challenge_accept"}, {"status", 500}, {"probability", p(0.05)}, {"count", 0}},
      {{"target", "chat"},
       {"status", 429},
       {"ratelimit_seconds", 5},
       {"probability", p(0.1)},
       {"count", 0}},
      {{"target", "account_playing"}, {"status", 500}, {"probability", p(0.2)}, {"count", 0}},
  });
}

Json random_challenge(std::mt19937& rng, int n) {
  static const char* kNames[] = {"Alma", "Boris", "Cleo", "Dario", "Edda", "Finn", "Gala", "Hugo"};
  const std::string name = std::string(kNames[rng() % 8]) + std::to_string(n);
  Json opponent;
  const unsigned kind = rng() % 10;
  if (kind < 7) {
    opponent = engine_opponent(int(rng() % 6), 30 + int(rng() % 40));
  } else {
    opponent = {{"type", "random"}, {"resign_at_ply", 30 + int(rng() % 40)}};
  }
  const bool human = rng() % 3 == 0;
  const int limit_s = (rng() % 2) ? 60 : 120;
  const int inc = int(rng() % 3);
  Json spec = challenge_spec(name, !human, opponent, limit_s, inc);
  spec["color"] = (rng() % 2) ? "white" : "black";
  return spec;
}

struct Tally {
  int created = 0, completed = 0, declined = 0, stuck = 0, crashes = 0, bad_pgn = 0;
  int server_restarts = 0, blips = 0;
  std::map<std::string, int> by_status;
};

// Admin calls fail while the server is "restarting": retried until it is back.
template <class F>
auto retrying(F f) -> decltype(f()) {
  for (int attempt = 0;; ++attempt) {
    try {
      return f();
    } catch (const std::exception&) {
      if (attempt > 100) throw;
      std::this_thread::sleep_for(100ms);
    }
  }
}

double mib(long kb) { return double(kb) / 1024.0; }

int run(const SoakOptions& o) {
  const std::filesystem::path dir = std::filesystem::absolute(o.dir);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  Emulator emu(dir, {"--seed", std::to_string(o.seed)});
  emu.add_faults({{"seed", o.seed}, {"rules", fault_rules(o.fault_rate)}});
  BotSettings s(emu.base_url());
  s.set("challenge", "max_concurrent_games", std::to_string(o.concurrency))
      .set("challenge", "max_games_per_opponent", "1")
      .set_quoted("game", "pgn_dir", (dir / "pgn").string())
      .set_quoted("operations", "state_dir", (dir / "state").string())
      .set("game", "human_min_think_ms", "200")
      .set("game", "ponder", "on")
      // The real clock-driven budget (no tree cap): losing on time must be impossible, not
      // merely unlikely because every search is tiny.
      .set("search", "max_tree_nodes", "0")
      .set("operations", "log_level", o.log_level);
  int bot_starts = 0;
  auto start_bot = [&] {
    ++bot_starts;
    return std::make_unique<BotProcess>(dir, "zhbot-" + std::to_string(bot_starts), s, kToken);
  };
  std::unique_ptr<BotProcess> bot = start_bot();

  std::mt19937 rng(o.seed);
  Tally t;
  struct Live {
    std::string challenge, game;
    Clock::time_point since;
  };
  std::vector<Live> live;
  std::set<std::string> done_games;
  long rss_start_kb = 0;
  // The daemon's RSS, highest per block of ten finished games: flat when memory is not leaking
  // (the process-wide peak would only show the largest trees ever searched).
  std::vector<long> rss_max_kb(std::size_t((o.games + 9) / 10), 0);
  const auto t0 = Clock::now();
  auto last_blip = t0;
  auto last_restart = t0;

  while (t.completed + t.stuck < o.games) {
    if (!bot->process().running()) {
      ++t.crashes;
      std::cerr << "soak: the daemon died (" << bot->process().exit_status()->describe()
                << "); restarting it\n";
      bot = start_bot();
    }
    // Keep `concurrency` games going.
    const int in_flight = int(live.size());
    if (in_flight < o.concurrency && t.created < o.games + t.declined &&
        t.completed + t.stuck + in_flight < o.games) {
      const Json spec = random_challenge(rng, t.created);
      live.push_back({retrying([&] { return emu.challenge(spec); }), "", Clock::now()});
      ++t.created;
    }
    for (auto it = live.begin(); it != live.end();) {
      if (it->game.empty()) {
        const Json c = retrying([&] { return emu.challenge_state(it->challenge); });
        if (c.contains("gameId") && c["gameId"].is_string()) {
          it->game = c["gameId"];
        } else if (c.value("status", "") == "declined" || c.value("status", "") == "canceled") {
          // A slot the daemon had not freed yet, or an expired challenge: ask again later.
          ++t.declined;
          it = live.erase(it);
          continue;
        }
      } else {
        const Json g = retrying([&] { return emu.game(it->game); });
        if (game_over(g)) {
          ++t.completed;
          ++t.by_status[g.value("status", "?")];
          done_games.insert(it->game);
          try {
            parse_pgn(retrying([&] { return emu.pgn(it->game); }));
          } catch (const std::exception& e) {
            ++t.bad_pgn;
            std::cerr << "soak: PGN of " << it->game << " does not parse: " << e.what() << "\n";
          }
          it = live.erase(it);
          if (t.completed == o.concurrency) rss_start_kb = bot->process().rss_kb();
          continue;
        }
      }
      if (Clock::now() - it->since > std::chrono::seconds(o.game_timeout_s)) {
        std::cerr << "soak: " << (it->game.empty() ? it->challenge : it->game) << " made no end in "
                  << o.game_timeout_s << " s\n";
        ++t.stuck;
        it = live.erase(it);
        continue;
      }
      ++it;
    }
    // Network blips and whole-server restarts, every so often.
    const auto now = Clock::now();
    if (o.fault_rate > 0 && now - last_blip > 20s) {
      retrying([&] { return emu.post("/admin/sever-streams"); });
      ++t.blips;
      last_blip = now;
    }
    if (o.fault_rate > 0 && now - last_restart > 45s) {
      retrying([&] { return emu.post("/admin/restart?down_ms=1500"); });
      ++t.server_restarts;
      last_restart = now;
      std::this_thread::sleep_for(2s);
    }
    const std::size_t block = std::min(rss_max_kb.size() - 1, std::size_t(t.completed / 10));
    rss_max_kb[block] = std::max(rss_max_kb[block], bot->process().rss_kb());
    std::this_thread::sleep_for(200ms);
  }

  const long rss_end_kb = bot->process().rss_kb();
  const long peak_kb = bot->process().peak_rss_kb();
  const Json stats = retrying([&] { return emu.stats(); });
  const int rejected = stats.value("rejected_moves", 0);
  const int duplicates = stats.value("duplicate_moves", 0);
  const int lost_on_time = stats.value("bot_lost_on_time", 0);
  // Every bot start opens the event stream once; every game opens its stream once.
  const int reconnects = stats.value("event_stream_opens", 0) - bot_starts +
                         stats.value("game_stream_opens", 0) - stats.value("games", 0);
  const double minutes = std::chrono::duration<double>(Clock::now() - t0).count() / 60;
  const bool daemon_alive = bot->process().running();
  const ExitStatus exit = bot->terminate(30s);

  std::printf(
      "\n| games | completed | crashes | illegal moves | lost on time | duplicate moves "
      "| stream reconnects | RSS max, first 10 games | RSS max, last 10 games |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  std::printf("| %d | %d | %d | %d | %d | %d | %d | %.0f MiB | %.0f MiB |\n", o.games, t.completed,
              t.crashes, rejected - duplicates, lost_on_time, duplicates, reconnects,
              mib(rss_max_kb.front()), mib(rss_max_kb.back()));
  std::printf("\nRSS max per 10 games (MiB):");
  for (long kb : rss_max_kb) std::printf(" %.0f", mib(kb));
  std::printf(". RSS %.0f MiB after %d games, %.0f MiB at the end (peak %.0f MiB). Endings:",
              mib(rss_start_kb), o.concurrency, mib(rss_end_kb), mib(peak_kb));
  for (const auto& [k, v] : t.by_status) std::printf(" %s %d", k.c_str(), v);
  std::printf(
      ".\nStuck games %d, PGNs not parsing %d, challenges re-issued after a decline %d, "
      "stream blips %d, server restarts %d, %.1f min, seed %u, fault rate %.2f. Daemon %s "
      "at the end, exit on SIGTERM: %s.\n",
      t.stuck, t.bad_pgn, t.declined, t.blips, t.server_restarts, minutes, o.seed, o.fault_rate,
      daemon_alive ? "alive" : "dead", exit.describe().c_str());
  std::printf("Faults that fired: %s\n",
              retrying([&] { return emu.get("/admin/faults"); }).dump().c_str());
  const bool ok = t.completed == o.games && t.crashes == 0 && rejected == 0 && lost_on_time == 0 &&
                  t.stuck == 0 && t.bad_pgn == 0 && exit.exited && exit.code == 0;
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace zh::e2e

int main(int argc, char** argv) {
  zh::e2e::SoakOptions o;
  CLI::App app{"e2e-soak - many games against the lichess emulator with random faults"};
  app.add_option("--games", o.games, "games to play")->capture_default_str();
  app.add_option("--concurrency", o.concurrency, "games at once")->capture_default_str();
  app.add_option("--seed", o.seed, "seed for the challenges and the faults")->capture_default_str();
  app.add_option("--fault-rate", o.fault_rate, "scales every fault probability (0: none)")
      ->capture_default_str();
  app.add_option("--dir", o.dir, "directory for logs and PGNs (relative: to the working directory)")
      ->capture_default_str();
  app.add_option("--game-timeout", o.game_timeout_s, "seconds after which a game counts as stuck")
      ->capture_default_str();
  app.add_option("--log-level", o.log_level, "the daemon's operations.log_level")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  try {
    return zh::e2e::run(o);
  } catch (const std::exception& e) {
    std::cerr << "e2e-soak: " << e.what() << "\n";
    return 2;
  }
}
