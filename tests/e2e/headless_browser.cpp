#include "tests/e2e/headless_browser.h"

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <vector>

#include "tests/e2e/harness_io.h"

namespace zh::e2e {

namespace {

constexpr auto kBrowserTimeout = std::chrono::seconds(120);

}  // namespace

std::optional<std::string> HeadlessBrowser::find() {
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  for (const char* name : {"chromium", "chromium-browser"}) {
    std::stringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');) {
      const std::filesystem::path candidate = std::filesystem::path(dir) / name;
      if (!dir.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
  }
  return std::nullopt;
}

HeadlessBrowser::HeadlessBrowser(std::string program, std::filesystem::path dir)
    : program_(std::move(program)), dir_(std::move(dir)) {}

std::string HeadlessBrowser::run(std::vector<std::string> args, const std::string& log_name) {
  // A fresh profile each run: nothing cached from the last look.
  const std::filesystem::path profile = dir_ / ("chromium-profile-" + std::to_string(++runs_));
  std::vector<std::string> argv = {program_,         "--headless",
                                   "--no-sandbox",  // tests may run as root (containers, CI)
                                   "--disable-gpu",  "--disable-dev-shm-usage",
                                   "--no-first-run", "--user-data-dir=" + profile.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  const std::filesystem::path log = dir_ / log_name;
  std::filesystem::remove(log);
  ChildProcess browser(argv, harness_child(log));
  if (!browser.wait_exit(kBrowserTimeout)) browser.stop();
  std::filesystem::remove_all(profile);
  return read_text(log);
}

std::string HeadlessBrowser::dump_dom(const std::string& url, std::chrono::milliseconds budget) {
  const std::string out =
      run({"--virtual-time-budget=" + std::to_string(budget.count()), "--dump-dom", url},
          "chromium-dom-" + std::to_string(runs_ + 1) + ".log");
  // The DOM is on stdout, the browser's own warnings on stderr: both went to the log.
  const auto begin = out.find("<html");
  const auto end = out.rfind("</html>");
  if (begin == std::string::npos || end == std::string::npos || end < begin) return "";
  return out.substr(begin, end + 7 - begin);
}

bool HeadlessBrowser::screenshot(const std::string& url, const std::filesystem::path& png,
                                 std::chrono::milliseconds budget, int width, int height) {
  std::filesystem::remove(png);
  run({"--virtual-time-budget=" + std::to_string(budget.count()),
       "--window-size=" + std::to_string(width) + "," + std::to_string(height), "--hide-scrollbars",
       "--screenshot=" + png.string(), url},
      "chromium-screenshot.log");
  return std::filesystem::exists(png) && std::filesystem::file_size(png) > 0;
}

}  // namespace zh::e2e
