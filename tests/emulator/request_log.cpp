#include "tests/emulator/request_log.h"

#include <cstdio>

namespace zh::emulator {

void RequestLog::add(std::string method, std::string path, std::string endpoint, int status) {
  std::lock_guard lock(mu_);
  RequestRecord r;
  r.seq = std::int64_t(records_.size()) + 1;
  r.method = std::move(method);
  r.path = std::move(path);
  r.endpoint = std::move(endpoint);
  r.status = status;
  r.at_ms = elapsed_ms();
  if (echo_)
    std::fprintf(stderr, "[emulator %8.3fs] %s %s -> %d\n", double(r.at_ms) / 1000,
                 r.method.c_str(), r.path.c_str(), r.status);
  records_.push_back(std::move(r));
}

nlohmann::json RequestLog::since(std::int64_t since) const {
  std::lock_guard lock(mu_);
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : records_) {
    if (r.seq <= since) continue;
    out.push_back({{"seq", r.seq},
                   {"method", r.method},
                   {"path", r.path},
                   {"endpoint", r.endpoint},
                   {"status", r.status},
                   {"at_ms", r.at_ms}});
  }
  return out;
}

}  // namespace zh::emulator
