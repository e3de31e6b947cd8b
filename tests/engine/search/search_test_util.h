#pragma once
// Helpers shared by the search tests: default parameters and a blocking search run.

#include <unistd.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>

#include "engine/chess/game.h"
#include "engine/nn/backends/uniform.h"
#include "engine/search/search.h"

namespace zh::test {

inline SearchParams default_params(int threads = 1) {
  Options o;
  SearchParams::declare(o);
  SearchParams p = SearchParams::from(o);
  p.threads = threads;
  p.seed = 1;
  return p;
}

// The defaults with a tree instead of the graph: the tree's own tests (search_test.cpp).
inline SearchParams tree_params(int threads = 1) {
  SearchParams p = default_params(threads);
  p.graph = false;
  return p;
}

inline SearchSnapshot run_search(Search& s, const Game& g, const SearchParams& p,
                                 std::int64_t playouts) {
  s.set_game(g, p);
  s.start(p, NodeLimits{playouts});
  while (!s.wait_finished_for(100)) {
  }
  s.join();
  return s.snapshot();
}

inline Game game_from(const char* fen) { return Game(Position::from_fen(fen)); }

// Counts calls; value fixed; uniform priors.
class CountingEvaluator : public Evaluator {
 public:
  std::string name() const override { return "counting"; }
  void evaluate(std::span<const EvalInput> in, std::span<Evaluation> out) override {
    positions += int(in.size());
    ++batches;
    inner_.evaluate(in, out);
  }
  int positions = 0;
  int batches = 0;

 private:
  UniformEvaluator inner_;
};

// Fails on the call after `good_calls` successful ones.
class FailingEvaluator : public Evaluator {
 public:
  explicit FailingEvaluator(int good_calls) : left_(good_calls) {}
  std::string name() const override { return "failing"; }
  void evaluate(std::span<const EvalInput> in, std::span<Evaluation> out) override {
    if (left_.fetch_sub(1) <= 0) throw std::runtime_error("device lost");
    inner_.evaluate(in, out);
  }

 private:
  std::atomic<int> left_;  // search threads call evaluate() concurrently
  UniformEvaluator inner_;
};

// Records which kernel threads called it (kernel ids are not reused soon, unlike
// std::thread::id): a search that started threads per move would show new ones every move.
class ThreadRecordingEvaluator : public Evaluator {
 public:
  std::string name() const override { return "thread-recording"; }
  void evaluate(std::span<const EvalInput> in, std::span<Evaluation> out) override {
    {
      std::lock_guard lock(mutex_);
      threads_.insert(gettid());
    }
    inner_.evaluate(in, out);
  }
  std::size_t threads_seen() const {
    std::lock_guard lock(mutex_);
    return threads_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::set<pid_t> threads_;
  UniformEvaluator inner_;
};

// Answers every position but `spared` with one legal move left out while `lying` is set:
// every move it gives is legal, so the search runs on, but those blocks are not their
// positions' moves. Stands in for a tree node that is not the position the game reached.
class MoveDroppingEvaluator : public Evaluator {
 public:
  std::string name() const override { return "move-dropping"; }
  void evaluate(std::span<const EvalInput> in, std::span<Evaluation> out) override {
    inner_.evaluate(in, out);
    for (std::size_t i = 0; i < in.size(); ++i)
      if (lying && in[i].position.key() != spared.key() && out[i].priors.size() > 1)
        out[i].priors.pop_back();
  }
  std::atomic<bool> lying{true};
  Position spared;  // the start position: the first search's root

 private:
  UniformEvaluator inner_;
};

}  // namespace zh::test
