#pragma once
// Time as the bot's network code sees it: the project's one Clock (engine/util/clock.h), through
// which streams, backoff and rate limits read time and sleep, so tests drive timeouts with a
// fake clock instead of waiting; and the random source of their jitter.

#include <functional>

#include "engine/util/clock.h"

namespace zh::bot {

using zh::CancelToken;
using zh::Clock;
using zh::Millis;
using zh::steady_clock;
using zh::SteadyClock;
using zh::TimePoint;

// Uniform numbers in [0, 1) for jitter; injectable so tests are deterministic.
using RandomSource = std::function<double()>;
RandomSource default_random_source();

}  // namespace zh::bot
