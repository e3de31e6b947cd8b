#pragma once
// Every request the emulator answered: method, path, endpoint name, status and the time
// since the emulator started, for tests to assert on (GET /admin/log).

#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/emulator/clock.h"

namespace zh::emulator {

struct RequestRecord {
  std::int64_t seq = 0;
  std::string method;
  std::string path;
  std::string endpoint;
  int status = 0;
  std::int64_t at_ms = 0;  // since the emulator started
};

class RequestLog {
 public:
  explicit RequestLog(bool echo) : echo_(echo), start_(SteadyClock::now()) {}
  void add(std::string method, std::string path, std::string endpoint, int status);
  // Records with seq > since, oldest first.
  nlohmann::json since(std::int64_t since) const;
  std::int64_t elapsed_ms() const { return millis_between(start_, SteadyClock::now()); }

 private:
  mutable std::mutex mu_;
  std::vector<RequestRecord> records_;
  bool echo_;
  SteadyTime start_;
};

}  // namespace zh::emulator
