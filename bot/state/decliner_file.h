#pragma once
// Bots our matchmaking never challenges again (matchmaking.seek_decliners_forever): the file
// decliners.txt in the state directory, one bot id a line, with the reason and the date after
// '#'. The operator reads it, deletes a line to give a bot another chance, or deletes the file
// to clear the list; every read sees the file as it is now, so no restart is needed.

#include <filesystem>
#include <set>
#include <string>

namespace zh::bot {

class DeclinerFile {
 public:
  explicit DeclinerFile(std::filesystem::path path) : path_(std::move(path)) {}
  const std::filesystem::path& path() const { return path_; }

  // The ids listed (lower case); none when the file does not exist. Blank lines and text after
  // '#' are ignored.
  std::set<std::string> ids() const;
  // Appends `user_id` with `reason` and today's date; false (the caller warns) when the file
  // cannot be written.
  bool add(const std::string& user_id, const std::string& reason) const;

 private:
  std::filesystem::path path_;
};

}  // namespace zh::bot
