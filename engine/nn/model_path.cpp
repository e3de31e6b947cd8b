#include "engine/nn/model_path.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace zh {
namespace fs = std::filesystem;

std::vector<std::string> model_directories() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("ZHBOT_MODEL_DIR"); env && *env) dirs.emplace_back(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    dirs.push_back((exe.parent_path().parent_path() / "share" / "zhbot" / "models").string());
#ifdef ZH_INSTALL_MODEL_DIR
  dirs.emplace_back(ZH_INSTALL_MODEL_DIR);
#endif
#ifdef ZH_SOURCE_MODEL_DIR
  dirs.emplace_back(ZH_SOURCE_MODEL_DIR);
#endif
  return dirs;
}

std::string resolve_model_path(const std::string& configured) {
  const fs::path given(configured);
  std::error_code ec;
  if (configured.empty() || given.has_parent_path() || fs::exists(given, ec)) return configured;
  std::string looked;
  for (const std::string& dir : model_directories()) {
    const fs::path candidate = fs::path(dir) / given;
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
    looked += "\n  " + candidate.string();
  }
  throw std::runtime_error("model file '" + configured +
                           "' was not found; looked in the current directory and:" + looked +
                           "\n(set evaluator.model to a path, or ZHBOT_MODEL_DIR)");
}

}  // namespace zh
