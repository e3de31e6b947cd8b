#include "bot/state/state_file.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace zh::bot {

namespace {

constexpr int kVersion = 1;
constexpr const char* kFileName = "state.json";
// A state file is a few hundred bytes; anything far larger is not ours.
constexpr std::uintmax_t kMaxFileBytes = 1 << 20;
constexpr std::size_t kMaxBotGameStarts = 10000;
constexpr std::size_t kMaxSeekDeclines = 10000;

std::string errno_text() { return std::strerror(errno); }

// write() the whole buffer, retrying short writes and EINTR.
bool write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

// The directory entry of a rename is durable only once the directory itself is synced.
bool sync_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

}  // namespace

std::string render_state(const PersistentState& state) {
  nlohmann::json j;
  j["version"] = kVersion;
  j["bot_game_starts"] = state.bot_game_starts;
  nlohmann::json declines = nlohmann::json::array();
  for (const SeekDecline& d : state.seek_declines)
    declines.push_back({{"user", d.user_id}, {"reason", d.reason}, {"until", d.until}});
  j["seek_declines"] = declines;
  return j.dump(2) + "\n";
}

std::optional<PersistentState> parse_state(std::string_view text, std::string& error) {
  const auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    error = "not valid JSON";
    return std::nullopt;
  }
  if (!j.is_object()) {
    error = "not a JSON object";
    return std::nullopt;
  }
  const auto version = j.find("version");
  if (version == j.end() || !version->is_number_integer() ||
      version->get<std::int64_t>() != kVersion) {
    error = "missing or unknown \"version\" (expected " + std::to_string(kVersion) + ")";
    return std::nullopt;
  }
  PersistentState state;
  const auto starts = j.find("bot_game_starts");
  if (starts != j.end()) {
    if (!starts->is_array() || starts->size() > kMaxBotGameStarts) {
      error = "\"bot_game_starts\" is not a list of at most " + std::to_string(kMaxBotGameStarts) +
              " times";
      return std::nullopt;
    }
    for (const auto& t : *starts) {
      if (!t.is_number_integer() || t.get<std::int64_t>() < 0) {
        error = "\"bot_game_starts\" holds something other than a time in seconds";
        return std::nullopt;
      }
      state.bot_game_starts.push_back(t.get<std::int64_t>());
    }
  }
  // Absent in files written before matchmaking existed: no declines remembered.
  const auto declines = j.find("seek_declines");
  if (declines != j.end()) {
    if (!declines->is_array() || declines->size() > kMaxSeekDeclines) {
      error = "\"seek_declines\" is not a list of at most " + std::to_string(kMaxSeekDeclines) +
              " entries";
      return std::nullopt;
    }
    for (const auto& d : *declines) {
      const bool ok = d.is_object() && d.contains("user") && d["user"].is_string() &&
                      d.contains("reason") && d["reason"].is_string() && d.contains("until") &&
                      d["until"].is_number_integer();
      if (!ok) {
        error = "\"seek_declines\" holds an entry without user, reason and until";
        return std::nullopt;
      }
      state.seek_declines.push_back(SeekDecline{d["user"].get<std::string>(),
                                                d["reason"].get<std::string>(),
                                                d["until"].get<std::int64_t>()});
    }
  }
  return state;
}

std::filesystem::path resolve_state_dir(const std::string& configured, const char* env_value) {
  if (!configured.empty()) return configured;
  if (env_value && *env_value) {
    // systemd joins several StateDirectory= entries with ':'; ours is the first.
    const std::string_view all(env_value);
    return std::string(all.substr(0, all.find(':')));
  }
  return "state";
}

StateFile::StateFile(std::filesystem::path dir) : dir_(std::move(dir)), path_(dir_ / kFileName) {}

PersistentState StateFile::load() const {
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec)) {
    if (ec)
      spdlog::warn("state file {}: {}; starting with a fresh state", path_.string(), ec.message());
    else
      spdlog::info("no state file at {} yet; starting with a fresh state", path_.string());
    return {};
  }
  std::string error;
  std::optional<PersistentState> state;
  const auto size = std::filesystem::file_size(path_, ec);
  if (ec) {
    error = ec.message();
  } else if (size > kMaxFileBytes) {
    error = "larger than " + std::to_string(kMaxFileBytes) + " bytes";
  } else {
    std::ifstream in(path_, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof())
      error = "cannot be read";
    else
      state = parse_state(text.str(), error);
  }
  if (state) return *state;
  // Keep the bad file for a look, out of the way of the next save.
  const auto aside = path_.string() + ".corrupt";
  std::filesystem::rename(path_, aside, ec);
  spdlog::warn("state file {} is unusable ({}); starting with a fresh state{}", path_.string(),
               error, ec ? "" : " (the old file is kept as " + aside + ")");
  return {};
}

bool StateFile::save(const PersistentState& state) const {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) {
    spdlog::warn("cannot create the state directory {}: {}", dir_.string(), ec.message());
    return false;
  }
  const std::filesystem::path temp = path_.string() + ".tmp";
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    spdlog::warn("cannot write the state file {}: {}", temp.string(), errno_text());
    return false;
  }
  const bool written = write_all(fd, render_state(state)) && ::fsync(fd) == 0;
  const std::string write_error = written ? "" : errno_text();
  ::close(fd);
  if (!written || ::rename(temp.c_str(), path_.c_str()) != 0) {
    spdlog::warn("cannot write the state file {}: {}", path_.string(),
                 written ? errno_text() : write_error);
    ::unlink(temp.c_str());
    return false;
  }
  if (!sync_directory(dir_))
    spdlog::warn("state file {} written, but its directory could not be synced: {}", path_.string(),
                 errno_text());
  return true;
}

}  // namespace zh::bot
