#include "engine/log.h"

#include <cstdio>
#include <mutex>
#include <string>

namespace zh {
namespace {

std::mutex& sink_mutex() {
  static std::mutex m;
  return m;
}

LogSink& current_sink() {
  static LogSink sink;
  return sink;
}

const char* level_name(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarning:
      return "warning";
    case LogLevel::kError:
      return "error";
  }
  return "?";
}

}  // namespace

void set_log_sink(LogSink sink) {
  std::lock_guard lock(sink_mutex());
  current_sink() = std::move(sink);
}

void log_message(LogLevel level, std::string_view text) {
  std::lock_guard lock(sink_mutex());
  if (current_sink()) {
    current_sink()(level, text);
  } else if (level != LogLevel::kDebug) {
    std::fprintf(stderr, "[%s] %.*s\n", level_name(level), int(text.size()), text.data());
  }
}

}  // namespace zh
