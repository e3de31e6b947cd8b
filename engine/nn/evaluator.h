#pragma once
// The only view the search has of a neural network: a value for the side to move and a prior
// per legal move. Plane encoding and the policy map stay behind this interface.

#include <array>
#include <exception>
#include <future>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/chess/move.h"
#include "engine/chess/position.h"

namespace zh {

// What an evaluator needs to know about a position: the position itself, how often it
// occurred before in the game + search path (the repetition input planes) and the moves that
// led to it (input format 2.0's last-move planes; format 1.0 ignores them).
struct EvalInput {
  Position position;
  int repetitions = 0;
  // [0] the move that led to `position`, [1] the move before it; null where unknown or none.
  std::array<Move, 2> last_moves{};
};

// The last moves of a game whose moves are `moves` (oldest first).
inline std::array<Move, 2> last_moves_of(const std::vector<Move>& moves) {
  const std::size_t n = moves.size();
  return {n >= 1 ? moves[n - 1] : Move(), n >= 2 ? moves[n - 2] : Move()};
}

struct MovePrior {
  Move move;
  float prior;
};

struct Evaluation {
  float value = 0.0f;             // in [-1, 1], from the side to move's point of view
  std::vector<MovePrior> priors;  // one per legal move, summing to 1 (empty if no legal move)
};

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  virtual std::string name() const = 0;
  // Evaluates inputs[i] into outputs[i]; inputs.size() == outputs.size().
  // Implementations document whether they may be called from several threads at once;
  // InferenceService makes any backend safe to share.
  virtual void evaluate(std::span<const EvalInput> inputs, std::span<Evaluation> outputs) = 0;

  // Starts evaluating inputs[i] into outputs[i] and returns at once where the evaluator can
  // work in the background (an InferenceService queues them for its worker); the future's get()
  // waits until every output is filled and rethrows a failure. Both spans must outlive that
  // get(). The caller may prepare more work meanwhile: that is how one search thread keeps
  // several mini-batches at a device. The default evaluates on the calling thread first.
  virtual std::future<void> evaluate_async(std::span<const EvalInput> inputs,
                                           std::span<Evaluation> outputs) {
    std::promise<void> done;
    try {
      evaluate(inputs, outputs);
      done.set_value();
    } catch (...) {
      done.set_exception(std::current_exception());
    }
    return done.get_future();
  }

  // A search thread says when it starts handing batches to this evaluator and when it stops
  // (ProducerScope, around a search). A batching evaluator (InferenceService) then knows when
  // every producer is blocked waiting on it, so that no other request can come, and runs what
  // it holds at once instead of waiting max_wait_us for company. Wrappers pass them on; the
  // default ignores them.
  virtual void producer_started() {}
  virtual void producer_stopped() {}
};

// producer_started() for the scope's life, producer_stopped() at its end.
class ProducerScope {
 public:
  explicit ProducerScope(Evaluator& evaluator) : evaluator_(evaluator) {
    evaluator_.producer_started();
  }
  ~ProducerScope() { evaluator_.producer_stopped(); }
  ProducerScope(const ProducerScope&) = delete;
  ProducerScope& operator=(const ProducerScope&) = delete;

 private:
  Evaluator& evaluator_;
};

}  // namespace zh
