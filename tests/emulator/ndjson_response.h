#pragma once
// Serves a LineChannel as a chunked application/x-ndjson response: one JSON object per line,
// an empty line as keep-alive after each quiet heartbeat interval, with stream faults applied.

#include <httplib.h>

#include <cstdint>
#include <functional>
#include <memory>

#include "tests/emulator/faults.h"
#include "tests/emulator/line_channel.h"

namespace zh::emulator {

struct NdjsonOptions {
  int heartbeat_ms = 6000;
  StreamFaults faults;
  std::uint64_t seed = 1;
  std::function<void()> on_end;  // called once when the response is over, however it ended
};

void serve_ndjson(httplib::Response& res, std::shared_ptr<LineChannel> channel,
                  NdjsonOptions options);

}  // namespace zh::emulator
