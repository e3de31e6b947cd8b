#include "bot/state/decliner_file.h"

#include <ctime>
#include <fstream>

#include "engine/util/strings.h"

namespace zh::bot {

std::set<std::string> DeclinerFile::ids() const {
  std::set<std::string> out;
  std::ifstream in(path_);
  for (std::string line; std::getline(in, line);) {
    const std::string id = lower(trim(line.substr(0, line.find('#'))));
    if (!id.empty()) out.insert(id);
  }
  return out;
}

bool DeclinerFile::add(const std::string& user_id, const std::string& reason) const {
  std::error_code ec;
  std::filesystem::create_directories(path_.parent_path(), ec);
  std::ofstream out(path_, std::ios::app);
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char date[16];
  std::strftime(date, sizeof date, "%Y-%m-%d", &tm);
  out << lower(user_id) << "  # declined (" << reason << ") on " << date << "\n";
  return bool(out.flush());
}

}  // namespace zh::bot
