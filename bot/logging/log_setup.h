#pragma once
// Logging for the daemon: spdlog, text or one JSON object per line, every line passed through
// the secret redactor. Game lines come from a per-game logger named "game:<id>", so each line
// names its game (a "game" field in JSON).

#include <spdlog/spdlog.h>

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

// Installs the default logger ("zhbot") with that sink and level ("info", "debug", ...).
void setup_logging(LogFormat format, std::string_view level, LogWriter writer = {});

// A logger for one game sharing the default logger's sinks and level.
std::shared_ptr<spdlog::logger> game_logger(std::string_view game_id);

LogFormat parse_log_format(std::string_view text);  // "text" | "json"; throws invalid_argument

}  // namespace zh::bot
