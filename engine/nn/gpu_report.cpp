#include "engine/nn/gpu_report.h"

#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace zh {
namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  for (std::size_t start = 0;;) {
    const std::size_t end = s.find(sep, start);
    out.push_back(trim(s.substr(start, end == std::string_view::npos ? s.npos : end - start)));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

// nvidia-smi numbers GPUs physically; this process sees CUDA_VISIBLE_DEVICES' list in order.
std::string physical_id(int index) {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!visible || !*visible) return std::to_string(index);
  const std::vector<std::string> ids = split(visible, ',');
  return index < int(ids.size()) ? ids[std::size_t(index)] : std::to_string(index);
}

bool safe_id(const std::string& id) {
  for (char c : id)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
  return !id.empty();
}

}  // namespace

std::string missing_gpu_hint() {
  return "Check that the NVIDIA driver works on the host (`nvidia-smi` lists the GPU); that a "
         "container was started with the GPU (`docker run --gpus all`, or compose with "
         "docker/compose.gpu.yaml); and that this zhbot links a CUDA build of LibTorch (Debian's "
         "libtorch is CPU-only; docker/Dockerfile.cuda builds against a CUDA one)";
}

std::optional<std::string> format_gpu_line(std::string_view csv) {
  const std::vector<std::string> f = split(csv, ',');
  if (f.size() != 3 || f[0].empty() || f[1].empty() || f[2].empty()) return std::nullopt;
  return f[0] + ", compute capability " + f[1] + ", " + f[2];
}

std::string describe_gpu(int index) {
  const std::string id = physical_id(index);
  if (!safe_id(id)) return "GPU " + std::to_string(index) + " (unnamed: odd CUDA_VISIBLE_DEVICES)";
  const std::string command =
      "nvidia-smi --query-gpu=name,compute_cap,memory.total "
      "--format=csv,noheader -i " +
      id + " 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::string text;
  if (pipe) {
    std::array<char, 256> buf{};
    while (std::fgets(buf.data(), int(buf.size()), pipe.get())) text += buf.data();
  }
  if (const auto line = format_gpu_line(text.substr(0, text.find('\n'))))
    return "GPU " + std::to_string(index) + ": " + *line;
  return "GPU " + std::to_string(index) + " (nvidia-smi cannot name it: not installed in this " +
         "image, or a driver older than 510)";
}

}  // namespace zh
