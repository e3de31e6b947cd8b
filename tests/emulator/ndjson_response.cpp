#include "tests/emulator/ndjson_response.h"

#include <random>
#include <thread>

#include "tests/emulator/clock.h"

namespace zh::emulator {
namespace {

constexpr std::string_view kGarbageLine = "<html><body>502 Bad Gateway</body></html>\n";
constexpr std::string_view kUnknownLine =
    "{\"type\":\"emulatorUnknownEvent\",\"note\":\"a type this client does not know\"}\n";

struct WriterState {
  std::shared_ptr<LineChannel> channel;
  NdjsonOptions options;
  std::mt19937_64 rng;
  int lines = 0;
  bool stalled = false;
  SteadyTime stalled_since{};

  bool chance(double p) { return p > 0 && std::uniform_real_distribution<double>(0, 1)(rng) < p; }
};

bool write(httplib::DataSink& sink, std::string_view text) {
  return sink.write(text.data(), text.size());
}

// One step of the stream; false drops the connection.
bool step(WriterState& st, httplib::DataSink& sink) {
  const StreamFaults& f = st.options.faults;
  if (st.stalled) {
    // A stalled stream sends nothing until it is replaced, the server restarts or time is up.
    if (st.channel->wait_closed(std::chrono::milliseconds(200))) return false;
    return millis_between(st.stalled_since, SteadyClock::now()) < f.stall_ms;
  }
  std::string line;
  switch (st.channel->next(line, std::chrono::milliseconds(st.options.heartbeat_ms))) {
    case LineChannel::Next::kSevered:
      return false;
    case LineChannel::Next::kFinished:
      sink.done();
      return true;
    case LineChannel::Next::kIdle:
      return f.no_heartbeat || write(sink, "\n");
    case LineChannel::Next::kLine:
      break;
  }
  if (f.slow_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(f.slow_ms));
  if (f.stall_after_lines >= 0 && st.lines >= f.stall_after_lines) {
    st.stalled = true;
    st.stalled_since = SteadyClock::now();
    return true;
  }
  if (f.drop_after_lines >= 0 && st.lines >= f.drop_after_lines) return false;
  if (st.chance(f.drop_probability)) return false;
  line += '\n';
  if (f.truncate_after_lines >= 0 && st.lines >= f.truncate_after_lines) {
    write(sink, std::string_view(line).substr(0, line.size() / 2));
    return false;
  }
  if (st.chance(f.garbage_probability) && !write(sink, kGarbageLine)) return false;
  if (st.chance(f.unknown_probability) && !write(sink, kUnknownLine)) return false;
  if (!write(sink, line)) return false;
  ++st.lines;
  if (st.chance(f.duplicate_probability) && !write(sink, line)) return false;
  return true;
}

}  // namespace

void serve_ndjson(httplib::Response& res, std::shared_ptr<LineChannel> channel,
                  NdjsonOptions options) {
  auto state = std::make_shared<WriterState>();
  state->channel = std::move(channel);
  state->rng.seed(options.seed);
  state->options = std::move(options);
  res.set_chunked_content_provider(
      "application/x-ndjson",
      [state](std::size_t, httplib::DataSink& sink) { return step(*state, sink); },
      [state](bool) {
        state->channel->sever();  // the world stops feeding a response that is gone
        if (state->options.on_end) state->options.on_end();
      });
}

}  // namespace zh::emulator
