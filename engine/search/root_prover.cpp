#include "engine/search/root_prover.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "engine/util/clock.h"

namespace zh {

RootProver::RootProver() : pns_(std::size_t(1) << 18), thread_([this] { loop(); }) {}

RootProver::~RootProver() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void RootProver::start(const Position& root, std::vector<std::uint64_t> earlier,
                       const RootProverParams& params, RootProverHooks hooks,
                       const std::atomic<bool>* stop) {
  {
    std::lock_guard lock(mutex_);
    root_ = root;
    earlier_ = std::move(earlier);
    params_ = params;
    hooks_ = std::move(hooks);
    stop_ = stop;
    nodes_.store(0, std::memory_order_relaxed);
    has_job_ = true;
    busy_ = true;
  }
  cv_.notify_all();
}

void RootProver::wait() {
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [&] { return !busy_; });
}

void RootProver::loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    cv_.wait(lock, [&] { return quit_ || has_job_; });
    if (quit_) return;
    has_job_ = false;
    lock.unlock();
    run_job();
    lock.lock();
    busy_ = false;
    hooks_ = {};  // the callbacks point into the search: none outlives its job
    cv_.notify_all();
  }
}

// Sleeps so that `busy_seconds` of work is `share` of the time since it began, in short steps
// that watch the stop flag.
void RootProver::pace(double busy_seconds) {
  if (params_.share >= 1.0) return;
  auto left = std::chrono::duration<double>(busy_seconds * (1.0 - params_.share) / params_.share);
  constexpr auto kStep = std::chrono::milliseconds(2);
  while (left.count() > 0 && !stopped()) {
    std::this_thread::sleep_for(kStep);
    left -= kStep;
  }
}

namespace {

// How much of a proof is remembered, and of a game's proofs: a long proof against every defence
// can hold thousands of attacker positions, each a map entry of some 64 bytes, so a game's
// memory stays under 10 MB; a line cut short is proven again as before.
constexpr std::size_t kStepsPerProof = 1 << 14;
constexpr std::size_t kStepsPerGame = 1 << 17;

}  // namespace

std::optional<ProofStep> RootProver::remembered(const Position& root) const {
  std::lock_guard lock(memory_mutex_);
  const auto it = remembered_.find(root.key());
  if (it == remembered_.end() || !root.is_legal(it->second.move)) return std::nullopt;
  return it->second;
}

void RootProver::forget() {
  std::lock_guard lock(memory_mutex_);
  remembered_.clear();
}

void RootProver::remember(const std::vector<ProofStep>& steps) {
  std::lock_guard lock(memory_mutex_);
  if (remembered_.size() + steps.size() > kStepsPerGame) remembered_.clear();
  for (const ProofStep& step : steps) {
    auto [it, added] = remembered_.try_emplace(step.key, step);
    if (!added && step.plies < it->second.plies) it->second = step;
  }
}

// A proof-number search proves some mate, not the shortest: prove again with fewer plies
// until it fails, so that the mate played is short and the one reported is the one played.
// Each proof is read out of the table right after its prove(), before the next call changes it.
ProofResult RootProver::shortest(ProofResult proof, std::int64_t budget) {
  std::vector<ProofStep> steps;
  pns_.proof_moves(root_, proof, kStepsPerProof, steps);
  while (proof.plies > 1 && !stopped()) {
    const ProofResult shorter =
        pns_.prove(root_, ProofLimits{budget, proof.plies - 2}, earlier_, stop_);
    nodes_.fetch_add(shorter.nodes, std::memory_order_relaxed);
    if (!shorter.proven()) break;
    proof = shorter;
    steps.clear();
    pns_.proof_moves(root_, proof, kStepsPerProof, steps);
  }
  remember(steps);
  return proof;
}

void RootProver::run_job() {
  std::vector<std::uint64_t> after_root = earlier_;
  after_root.push_back(root_.key());
  // One table for the job: each round goes on from the last (the root and the game's positions
  // before it are the same throughout); a new root starts afresh.
  pns_.clear();
  bool ours_disproven = false;
  for (std::int64_t budget = params_.first_budget; !stopped();
       budget = std::min(params_.max_budget, budget * 2)) {
    const auto began = steady_clock().now();
    if (!ours_disproven) {
      const ProofResult r =
          pns_.prove(root_, ProofLimits{budget, params_.max_plies}, earlier_, stop_);
      nodes_.fetch_add(r.nodes, std::memory_order_relaxed);
      if (r.proven()) {
        // Remembered even when the search has stopped meanwhile: the next move's search starts
        // from it.
        const ProofResult best = shortest(r, budget);
        if (!stopped()) hooks_.mate_found(best.move, best.plies);
        return;
      }
      ours_disproven = r.disproven;
    }
    for (const Move m : hooks_.candidates()) {
      if (stopped()) return;
      Position next = root_;
      next.do_move(m);
      const ProofResult r =
          pns_.prove(next, ProofLimits{budget, params_.max_plies - 1}, after_root, stop_);
      nodes_.fetch_add(r.nodes, std::memory_order_relaxed);
      if (!r.proven()) continue;
      // The mate after m is remembered too: while we ponder, m is the opponent's move and the
      // mate is ours, and once m is played the next search starts from it instead of proving it
      // again from a fresh table at the first budget.
      std::vector<ProofStep> steps;
      pns_.proof_moves(next, r, kStepsPerProof, steps);
      remember(steps);
      if (!stopped()) hooks_.move_refuted(m, r.plies);
    }
    pace(std::chrono::duration<double>(steady_clock().now() - began).count());
  }
}

}  // namespace zh
