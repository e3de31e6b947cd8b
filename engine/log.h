#pragma once
// The engine's one way to report what happened outside a search (a model loaded, a teacher
// restarted). The engine links no logging library: it writes to a sink the program installs
// (the bot forwards to spdlog); without one, info and above go to stderr.

#include <functional>
#include <string_view>

namespace zh {

enum class LogLevel { kDebug, kInfo, kWarning, kError };

using LogSink = std::function<void(LogLevel, std::string_view)>;

// Replaces the process-wide sink (nullptr: back to stderr). Not for hot paths.
void set_log_sink(LogSink sink);
void log_message(LogLevel level, std::string_view text);

}  // namespace zh
