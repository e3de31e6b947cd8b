#pragma once
// Chance for the bot's network code: uniform numbers in [0, 1) for the jitter of backoff and
// matchmaking's choices, injectable so tests are deterministic. (Time comes from the one Clock,
// engine/util/clock.h.)

#include <functional>

namespace zh::bot {

using RandomSource = std::function<double()>;
// A seeded Mersenne twister behind a lock, shared by whoever holds a copy.
RandomSource default_random_source();

}  // namespace zh::bot
