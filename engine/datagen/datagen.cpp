#include "engine/datagen/datagen.h"

#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "engine/datagen/earlier_work.h"
#include "engine/datagen/shard_io.h"
#include "engine/log.h"
#include "engine/util/clock.h"

namespace zh::datagen {
namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64: independent streams per game
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::string duration_text(double seconds) {
  char buf[32];
  if (seconds < 0 || seconds > 1e8) return "?";
  const long s = long(seconds);
  std::snprintf(buf, sizeof buf, "%ldh%02ldm%02lds", s / 3600, s / 60 % 60, s % 60);
  return buf;
}

struct Shared {
  // What the folder held from an earlier run of the same work (take_up_earlier_work).
  std::int64_t games_before = 0, positions_before = 0;
  std::atomic<std::int64_t> next_game{0};
  std::atomic<std::int64_t> games{0};
  std::atomic<std::int64_t> positions{0};
  std::atomic<std::int64_t> lost{0};
  std::atomic<std::int64_t> adjudicated{0};
  std::atomic<std::int64_t> decisive{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::string error;
  double teacher_seconds = 0;
  std::int64_t restarts = 0;
  std::int64_t ignored = 0;
};

// The games this run is to finish: --games, or every recorded game (0: no limit).
std::int64_t games_target(const DatagenOptions& o) {
  return o.recorded ? std::int64_t(o.recorded->size()) : o.games;
}

bool target_reached(const DatagenOptions& o, const Shared& s) {
  const std::int64_t games = games_target(o);
  return (o.positions > 0 && s.positions_before + s.positions.load() >= o.positions) ||
         (games > 0 && s.games_before + s.games.load() >= games);
}

std::uint64_t game_id_of(const DatagenOptions& o, std::int64_t number) {
  if (o.recorded) return (*o.recorded)[std::size_t(number)].id;
  return mix(o.seed ^ mix(std::uint64_t(number)));
}

void worker(int id, const DatagenOptions& o, const EarlierWork& earlier, ShardWriter& writer,
            SeenPositions& seen, Shared& shared, const LoadedEvaluator* zhbot,
            const std::atomic<bool>& stop) {
  std::unique_ptr<UciTeacher> teacher;
  std::unique_ptr<OwnGamePlayers> players;
  try {
    teacher = std::make_unique<UciTeacher>(o.teacher);
    if (zhbot) players = std::make_unique<OwnGamePlayers>(o.own, o.teacher, *zhbot);
  } catch (const std::exception& e) {
    std::lock_guard lock(shared.mutex);
    shared.failed = true;
    shared.error = e.what();
    return;
  }
  int failures_in_a_row = 0;
  while (!stop.load() && !shared.failed.load() && !target_reached(o, shared)) {
    const std::int64_t number = shared.next_game++;
    if ((o.games > 0 || o.recorded) && number >= games_target(o)) break;
    const std::uint64_t game_id = game_id_of(o, number);
    if (earlier.game_ids.count(game_id)) continue;  // in the folder already
    std::mt19937_64 rng(mix(o.seed * 0x100000001B3ull + std::uint64_t(number)));
    try {
      PlayedGame g =
          o.recorded ? label_recorded_game(*teacher, (*o.recorded)[std::size_t(number)], o.game,
                                           seen, stop)
          : players  ? play_own_game(*teacher, *players, number, game_id, rng, o.game, seen, stop)
                     : play_teacher_game(*teacher, game_id, rng, o.game, seen, stop);
      failures_in_a_row = 0;
      if (stop.load()) {
        ++shared.lost;
        break;
      }
      writer.add_game(g.records);
      shared.positions += std::int64_t(g.records.size());
      ++shared.games;
      if (g.adjudicated) ++shared.adjudicated;
      if (g.outcome.result != GameResult::kDraw) ++shared.decisive;
    } catch (const TeacherError& e) {
      ++shared.lost;
      log_message(LogLevel::kWarning, "datagen: worker " + std::to_string(id) + ": " + e.what() +
                                          "; game abandoned, teacher restarted");
      if (++failures_in_a_row >= 5) {
        std::lock_guard lock(shared.mutex);
        shared.failed = true;
        shared.error = std::string("teacher failed 5 times in a row: ") + e.what();
        break;
      }
      try {
        teacher->restart();
        if (players) players->restart_opponents();
      } catch (const std::exception& restart_error) {
        std::lock_guard lock(shared.mutex);
        shared.failed = true;
        shared.error = restart_error.what();
        break;
      }
    } catch (const std::exception& e) {  // zhbot's own search failed: no retry helps
      std::lock_guard lock(shared.mutex);
      shared.failed = true;
      shared.error = e.what();
      break;
    }
  }
  std::lock_guard lock(shared.mutex);
  shared.teacher_seconds += teacher->search_seconds();
  shared.restarts += teacher->restarts();
  shared.ignored += teacher->ignored_lines();
}

}  // namespace

DatagenReport run_datagen(const DatagenOptions& o, const std::atomic<bool>& stop,
                          std::ostream& log) {
  if (o.own.enabled) check_own_game_options(o.own);  // before the folder is touched
  SeenPositions seen;
  const EarlierWork earlier = take_up_earlier_work(o.out, o.prefix, seen, o.format);
  ShardWriter writer(o.out, o.prefix, o.shard_records, o.game.policy_temperature_cp,
                     Millis(std::int64_t(o.shard_minutes * 60000.0)), steady_clock(), o.format);
  Shared shared;
  shared.positions_before = earlier.positions;
  if (games_target(o) > 0) {
    for (std::int64_t n = 0; n < games_target(o); ++n)
      shared.games_before += std::int64_t(earlier.game_ids.count(game_id_of(o, n)));
  } else {
    shared.games_before = std::int64_t(earlier.game_ids.size());
  }
  if (earlier.shards > 0 || earlier.temporary_removed > 0)
    log << "datagen: taking up " << o.out.string() << ": " << shared.games_before
        << " games of this work (" << earlier.positions << " positions) in " << earlier.shards
        << " shard(s) from an earlier run; " << earlier.temporary_removed
        << " unfinished shard(s) removed, their games are played again\n"
        << std::flush;
  // Own games: one network for every worker's zhbot, loaded before any game starts.
  std::optional<LoadedEvaluator> zhbot;
  if (o.own.enabled) zhbot = load_own_game_evaluator(o.own);
  const auto started = zh::steady_clock().now();
  std::vector<std::thread> threads;
  for (int i = 0; i < o.workers; ++i)
    threads.emplace_back(worker, i, std::cref(o), std::cref(earlier), std::ref(writer),
                         std::ref(seen), std::ref(shared), zhbot ? &*zhbot : nullptr,
                         std::cref(stop));

  // Progress until every worker is done.
  std::atomic<bool> done{false};
  std::thread progress([&] {
    const auto period = std::chrono::duration<double>(o.progress_seconds);
    auto next = zh::steady_clock().now() + period;
    while (!done.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      const auto now = zh::steady_clock().now();
      if (now < next) continue;
      // One line for the ticks a pause slept through (tools/measure/quiet.sh stops the lab's
      // jobs for a timed match), not one each, all at once, when it ends.
      while (next <= now) next += period;
      const double t = std::chrono::duration<double>(zh::steady_clock().now() - started).count();
      const double pps = double(shared.positions.load()) / t;
      double eta = -1;
      if (o.positions > 0 && pps > 0)
        eta = double(o.positions - shared.positions_before - shared.positions.load()) / pps;
      if (games_target(o) > 0 && shared.games.load() > 0)
        eta = t * double(games_target(o) - shared.games_before - shared.games.load()) /
              double(shared.games.load());
      char line[256];
      std::snprintf(line, sizeof line,
                    "datagen: %lld positions (%.1f/s), %lld games, %llu duplicates skipped, "
                    "%lld games lost, elapsed %s, ETA %s\n",
                    (long long)shared.positions.load(), pps, (long long)shared.games.load(),
                    (unsigned long long)seen.duplicates(), (long long)shared.lost.load(),
                    duration_text(t).c_str(), eta < 0 ? "?" : duration_text(eta).c_str());
      log << line << std::flush;
    }
  });
  for (auto& t : threads) t.join();
  done = true;
  progress.join();
  writer.close();
  if (shared.failed.load()) throw TeacherError(shared.error);

  DatagenReport r;
  r.games = shared.games.load();
  r.positions = shared.positions.load();
  r.duplicates_skipped = std::int64_t(seen.duplicates());
  r.games_lost = shared.lost.load();
  r.teacher_restarts = shared.restarts;
  r.ignored_lines = shared.ignored;
  r.adjudicated = shared.adjudicated.load();
  r.decisive = shared.decisive.load();
  r.seconds = std::chrono::duration<double>(zh::steady_clock().now() - started).count();
  r.teacher_seconds = shared.teacher_seconds;
  r.workers = o.workers;
  r.shards = std::int64_t(writer.shards_written().size());
  r.games_before = shared.games_before;
  r.positions_before = shared.positions_before;
  return r;
}

void print_report(const DatagenReport& r, std::ostream& out) {
  const double labelled = r.seconds > 0 ? double(r.positions) / r.seconds : 0.0;
  // The teacher's own rate: what the workers would label if the driver cost nothing.
  // Positions searched include the duplicates that were not written.
  const double searched = double(r.positions + r.duplicates_skipped);
  const double teacher_rate =
      r.teacher_seconds > 0 ? searched / (r.teacher_seconds / double(r.workers)) : 0.0;
  const double written_share = searched > 0 ? double(r.positions) / searched : 0.0;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "games        %lld (%lld decisive, %lld adjudicated, %lld lost)\n"
                "positions    %lld written in %lld shard(s), %lld duplicates skipped (%.2f%%)\n"
                "time         %.1f s with %d worker(s)\n"
                "throughput   %.1f labelled positions/s; teacher alone %.1f positions/s "
                "(searched, %d workers); ratio %.3f\n"
                "teacher      %lld restart(s), %lld unexpected line(s)\n",
                (long long)r.games, (long long)r.decisive, (long long)r.adjudicated,
                (long long)r.games_lost, (long long)r.positions, (long long)r.shards,
                (long long)r.duplicates_skipped,
                searched > 0 ? 100.0 * double(r.duplicates_skipped) / searched : 0.0, r.seconds,
                r.workers, labelled, teacher_rate, r.workers,
                teacher_rate > 0 ? labelled / (teacher_rate * written_share) : 0.0,
                (long long)r.teacher_restarts, (long long)r.ignored_lines);
  out << buf;
  if (r.games_before > 0)
    out << "earlier      " << r.games_before << " games, " << r.positions_before
        << " positions already in the folder, taken up\n";
}

}  // namespace zh::datagen
