#pragma once
// Debian's `chromium` in headless mode, as the end-to-end tests use it to look at the status
// page the way a person would: the DOM after the page's script ran, and a screenshot.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace zh::e2e {

class HeadlessBrowser {
 public:
  // The browser on PATH (chromium, chromium-browser), or none: the caller skips its test.
  static std::optional<std::string> find();

  // Its profile and logs go to `dir`.
  HeadlessBrowser(std::string program, std::filesystem::path dir);

  // Loads `url`, lets its scripts run for `budget` of virtual time, and returns the DOM as
  // HTML ("" when the browser failed; its log in `dir` says why).
  std::string dump_dom(const std::string& url, std::chrono::milliseconds budget);
  // Loads `url` the same way and writes a PNG of `width` x `height`; true when it was written.
  bool screenshot(const std::string& url, const std::filesystem::path& png,
                  std::chrono::milliseconds budget, int width = 1280, int height = 900);

 private:
  std::string run(std::vector<std::string> args, const std::string& log_name);

  std::string program_;
  std::filesystem::path dir_;
  int runs_ = 0;
};

}  // namespace zh::e2e
