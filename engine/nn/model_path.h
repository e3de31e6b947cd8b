#pragma once
// Where a configured network file is found. A path with a directory part (absolute, or
// relative like "models/x.pt" or "./x.pt") is taken as it is. A bare file name ("x.pt", what
// the shipped configuration names) is looked up in the model directories, in order:
//   $ZHBOT_MODEL_DIR, <executable's dir>/../share/zhbot/models (an installed or copied tree),
//   the install prefix's share/zhbot/models, and the source tree's models/ (running from a
//   build directory) -- so one configuration works from `make run`, under systemd and in Docker.

#include <string>
#include <vector>

namespace zh {

// The directories searched for a bare model file name, in order (existing or not).
std::vector<std::string> model_directories();

// The path to load: `configured` itself when it has a directory part or exists as given,
// else the first model directory that holds it. Throws std::runtime_error naming every place
// looked at when none does.
std::string resolve_model_path(const std::string& configured);

}  // namespace zh
