#pragma once
// The multi-game workload: N games searched at once, each its own Engine and tree, all of them
// through one shared evaluator (an InferenceService per device for a network or the sim). It
// measures what a GPU server running many games sees: total nodes/s, the service's batch fill,
// queue wait and forward time, and the share of the device's capacity in use. Each game slot
// plays a fixed number of moves (a finished game is followed by a new one, so N games stay in
// flight to the end); it can write the searched positions as training records whose policy
// target is the search's visit distribution.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/nn/failover_evaluator.h"
#include "engine/nn/inference_service.h"

namespace zh::cli {

struct SelfplayConfig {
  int games = 8;              // game slots searched at once
  std::int64_t nodes = 800;   // playouts per move
  int plies = 40;             // moves each slot plays (over one or more games)
  std::uint64_t seed = 1;     // game g uses seed + g
  std::filesystem::path out;  // records go here when not empty
  // Engine options NAME=VALUE for every game (backend, threads, batch_size, ...).
  std::vector<std::string> options;
};

struct SelfplayReport {
  double seconds = 0;
  std::int64_t nodes = 0;        // playouts, all games
  std::int64_t evaluations = 0;  // positions the evaluator was asked for, all games
  std::int64_t moves = 0;
  std::int64_t games_finished = 0;  // ended by mate, stalemate or repetition
  std::int64_t records = 0;
  std::string evaluator;                  // its name
  std::optional<InferenceStats> service;  // when a service batched the evaluations
  std::optional<FailoverStats> failover;  // when a failover stood in front of a device
  int max_batch = 0;
  int devices = 0;  // inference services (one per device)
  // The backend's device time over the wall time: the share of its capacity in use (sim: its
  // exact device time; another backend behind a service: the time a batch was running).
  std::optional<double> capacity;
  // The sim's throughput at the mean batch fill: the most this run could have evaluated.
  std::optional<double> device_limit_per_s;

  double nodes_per_second() const { return seconds > 0 ? nodes / seconds : 0.0; }
};

// Runs the workload; throws for bad options or an evaluator that cannot be loaded.
SelfplayReport run_selfplay(const SelfplayConfig& config);

}  // namespace zh::cli
