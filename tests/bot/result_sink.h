#pragma once
// The answers of a MoveEngine (ThinkResult), delivered on any thread, held for a test to wait on.

#include <chrono>
#include <functional>
#include <optional>

#include "bot/game/move_engine.h"
#include "tests/support/waitable_log.h"

namespace zh::bot::test {

using namespace std::chrono_literals;

class ResultSink {
 public:
  std::function<void(const ThinkResult&)> callback() {
    return [this](const ThinkResult& r) { results_.add(r); };
  }
  // The n-th result (0-based), waiting up to a generous bound for it.
  std::optional<ThinkResult> wait(std::size_t n, std::chrono::milliseconds timeout = 30s) {
    return results_.wait(n, timeout);
  }
  std::size_t count() { return results_.size(); }

 private:
  zh::test::WaitableLog<ThinkResult> results_;
};

}  // namespace zh::bot::test
