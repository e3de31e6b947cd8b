#include "bot/lichess/random_source.h"

#include <memory>
#include <mutex>
#include <random>

namespace zh::bot {

RandomSource default_random_source() {
  auto engine = std::make_shared<std::mt19937_64>(std::random_device{}());
  auto mutex = std::make_shared<std::mutex>();
  return [engine, mutex] {
    std::lock_guard lock(*mutex);
    return std::uniform_real_distribution<double>(0.0, 1.0)(*engine);
  };
}

}  // namespace zh::bot
