#include "bot/logging/log_setup.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/rotating_file_sink.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "bot/lichess/redact.h"
#include "engine/log.h"

namespace zh::bot {

namespace {

constexpr std::string_view kGamePrefix = "game:";

std::string iso_time(spdlog::log_clock::time_point tp) {
  const auto secs = std::chrono::time_point_cast<std::chrono::seconds>(tp);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(tp - secs).count();
  const std::time_t t = spdlog::log_clock::to_time_t(tp);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, int(ms));
  return buf;
}

class RedactingSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  RedactingSink(LogFormat format, LogWriter writer) : format_(format), writer_(std::move(writer)) {
    set_formatter_(
        std::make_unique<spdlog::pattern_formatter>("[%Y-%m-%d %H:%M:%S.%e] [%l] [%n] %v"));
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    const std::string payload = redact(std::string_view(msg.payload.data(), msg.payload.size()));
    const std::string_view name(msg.logger_name.data(), msg.logger_name.size());
    std::string line;
    if (format_ == LogFormat::kJson) {
      nlohmann::json j;
      j["ts"] = iso_time(msg.time);
      const auto level = spdlog::level::to_string_view(msg.level);
      j["level"] = std::string(level.data(), level.size());
      if (name.substr(0, kGamePrefix.size()) == kGamePrefix)
        j["game"] = std::string(name.substr(kGamePrefix.size()));
      j["msg"] = payload;
      // Invalid UTF-8 from the network must not make the logger throw.
      line = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    } else {
      spdlog::details::log_msg copy(msg);
      copy.payload = spdlog::string_view_t(payload.data(), payload.size());
      spdlog::memory_buf_t buf;
      formatter_->format(copy, buf);
      line.assign(buf.data(), buf.size());
    }
    line = redact(line);  // the logger name or pattern could carry text too
    if (writer_) {
      writer_(line);
    } else {
      std::fwrite(line.data(), 1, line.size(), stderr);
    }
  }
  void flush_() override {
    if (!writer_) std::fflush(stderr);
  }

 private:
  LogFormat format_;
  LogWriter writer_;
};

}  // namespace

std::shared_ptr<spdlog::sinks::sink> make_log_sink(LogFormat format, LogWriter writer) {
  return std::make_shared<RedactingSink>(format, std::move(writer));
}

namespace {

// spdlog's rotating file sink, fed the finished (formatted, redacted) lines as they are.
LogWriter rotating_file_writer(const LogFile& file) {
  std::shared_ptr<spdlog::sinks::rotating_file_sink_mt> sink;
  try {
    sink = std::make_shared<spdlog::sinks::rotating_file_sink_mt>(file.path, file.max_bytes,
                                                                  file.files);
  } catch (const spdlog::spdlog_ex& e) {
    throw std::runtime_error("cannot write the log file " + file.path + ": " + e.what());
  }
  sink->set_formatter(std::make_unique<spdlog::pattern_formatter>(
      "%v", spdlog::pattern_time_type::local, std::string()));
  return [sink](std::string_view line) {
    sink->log(spdlog::details::log_msg(spdlog::string_view_t(), spdlog::level::info,
                                       spdlog::string_view_t(line.data(), line.size())));
    sink->flush();
  };
}

}  // namespace

void setup_logging(LogFormat format, std::string_view level, LogWriter writer,
                   const LogFile& file) {
  std::vector<spdlog::sink_ptr> sinks{make_log_sink(format, std::move(writer))};
  if (!file.path.empty()) sinks.push_back(make_log_sink(format, rotating_file_writer(file)));
  auto logger = std::make_shared<spdlog::logger>("zhbot", sinks.begin(), sinks.end());
  logger->set_level(spdlog::level::from_str(std::string(level)));
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
  // The engine's messages (model loaded, ...) go through the same redacting logger.
  set_log_sink([](LogLevel lvl, std::string_view text) {
    static constexpr spdlog::level::level_enum kLevels[] = {
        spdlog::level::debug, spdlog::level::info, spdlog::level::warn, spdlog::level::err};
    spdlog::default_logger()->log(kLevels[static_cast<int>(lvl)], "{}", text);
  });
}

std::shared_ptr<spdlog::logger> game_logger(std::string_view game_id) {
  return spdlog::default_logger()->clone(std::string(kGamePrefix) + std::string(game_id));
}

LogFormat parse_log_format(std::string_view text) {
  if (text == "text") return LogFormat::kText;
  if (text == "json") return LogFormat::kJson;
  throw std::invalid_argument("--log-format '" + std::string(text) +
                              "' is not allowed; expected text or json");
}

}  // namespace zh::bot
