#include "bot/lichess/redact.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace zh::bot {

namespace {

std::mutex& secrets_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::vector<std::string>& secrets() {
  static std::vector<std::string> list;
  return list;
}

}  // namespace

void register_secret(std::string secret) {
  // Very short strings would mask ordinary words; lichess tokens are long.
  if (secret.size() < 4) return;
  std::lock_guard lock(secrets_mutex());
  auto& list = secrets();
  if (std::find(list.begin(), list.end(), secret) == list.end()) list.push_back(std::move(secret));
}

std::string redact(std::string_view text) {
  std::string out(text);
  std::lock_guard lock(secrets_mutex());
  for (const auto& secret : secrets()) {
    std::size_t pos = 0;
    while ((pos = out.find(secret, pos)) != std::string::npos) {
      out.replace(pos, secret.size(), kRedacted);
      pos += kRedacted.size();
    }
  }
  return out;
}

}  // namespace zh::bot
