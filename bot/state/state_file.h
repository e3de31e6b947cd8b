#pragma once
// What the daemon must remember across restarts, in one small JSON file under the state
// directory (operations.state_dir; systemd's StateDirectory=, a volume in Docker): the start
// times of recent bot-vs-bot games, so the 24 h cap lichess sets is not reset by a restart, and
// the bots that declined our matchmaking challenges, so they are not asked again too soon. Writes
// are atomic (temporary file, fsync, rename, fsync of the directory): a crash leaves the old file
// or the new one, never half of one. A file that cannot be read or parsed is reported and replaced
// by a fresh state: it never stops the bot.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zh::bot {

// A bot that declined our challenge, and until when (Unix seconds) it is not asked again.
struct SeekDecline {
  std::string user_id;  // lower case
  std::string reason;   // lichess decline reason key, as it came
  std::int64_t until = 0;

  bool operator==(const SeekDecline&) const = default;
};

struct PersistentState {
  // Wall-clock start times (seconds since the Unix epoch) of bot-vs-bot games, oldest first.
  std::vector<std::int64_t> bot_game_starts;
  std::vector<SeekDecline> seek_declines;

  bool operator==(const PersistentState&) const = default;
};

// The file's text and back. parse_state returns nullopt (and why) for anything that is not a
// state this version wrote; it never throws.
std::string render_state(const PersistentState& state);
std::optional<PersistentState> parse_state(std::string_view text, std::string& error);

// The state directory: `configured` when set, else the first entry of systemd's
// $STATE_DIRECTORY (`env_value`, may be null), else "state" (relative to the working directory).
std::filesystem::path resolve_state_dir(const std::string& configured, const char* env_value);

class StateFile {
 public:
  explicit StateFile(std::filesystem::path dir);

  const std::filesystem::path& path() const { return path_; }
  // The stored state; a missing file is a first start. A corrupt or unreadable file is logged
  // as a warning (and kept aside as <file>.corrupt for a look) and gives a fresh state.
  PersistentState load() const;
  // Atomic replace; creates the directory. On failure: a warning, false, the old file intact.
  bool save(const PersistentState& state) const;

 private:
  std::filesystem::path dir_;
  std::filesystem::path path_;
};

}  // namespace zh::bot
