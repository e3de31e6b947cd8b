#pragma once
// Logging for the daemon: spdlog, text or one JSON object per line, every line passed through
// the secret redactor. Game lines come from a per-game logger named "game:<id>", so each line
// names its game (a "game" field in JSON).

#include <spdlog/spdlog.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace zh::bot {

enum class LogFormat { kText, kJson };

// Writes finished lines; stderr unless a test captures them.
using LogWriter = std::function<void(std::string_view line)>;

// A sink that formats (text or JSON), redacts secrets and writes whole lines.
std::shared_ptr<spdlog::sinks::sink> make_log_sink(LogFormat format, LogWriter writer = {});

// A copy of the log in a file that rotates by size (operations.log_file): zhbot.log grows to
// `max_bytes`, then becomes zhbot.1.log (zhbot.1.log becomes zhbot.2.log, ...), keeping
// `files` old ones.
struct LogFile {
  std::string path;  // empty: no file
  std::size_t max_bytes = 10u << 20;
  std::size_t files = 5;
};

// Installs the default logger ("zhbot") with that sink and level ("info", "debug", ...), and
// the same lines (formatted and redacted alike) in `file` when it names one. Throws
// std::runtime_error naming the file when it cannot be opened.
void setup_logging(LogFormat format, std::string_view level, LogWriter writer = {},
                   const LogFile& file = {});

// A logger for one game sharing the default logger's sinks and level.
std::shared_ptr<spdlog::logger> game_logger(std::string_view game_id);

LogFormat parse_log_format(std::string_view text);  // "text" | "json"; throws invalid_argument

}  // namespace zh::bot
