#include "tests/emulator/emulator_harness.h"

#include <signal.h>
#include <stdlib.h>

#include <random>
#include <sstream>
#include <stdexcept>

#include "engine/chess/game.h"
#include "engine/chess/notation.h"

namespace zh::emulator::test {
namespace {

httplib::Headers bearer(const std::string& token) {
  return {{"Authorization", "Bearer " + token}, {"User-Agent", "zhbot-test/1.0"}};
}

}  // namespace

EmulatorProcess::EmulatorProcess(std::vector<std::string> args) {
  signal(SIGPIPE, SIG_IGN);
  char tmpl[] = "zh-emulator-XXXXXX";  // in the test's working directory (the build)
  if (mkdtemp(tmpl) == nullptr) throw std::runtime_error("cannot create a folder for the emulator");
  dir_ = tmpl;
  launched_ = std::make_unique<LaunchedEmulator>(EmulatorLaunch{.dir = dir_, .args = args});
  port_ = launched_->port();
}

EmulatorProcess::~EmulatorProcess() {
  launched_.reset();  // ends it before its folder goes
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

httplib::Result EmulatorProcess::get(const std::string& path, const std::string& token) {
  httplib::Client c("127.0.0.1", port_);
  c.set_read_timeout(5, 0);
  return c.Get(path.c_str(), bearer(token));
}

httplib::Result EmulatorProcess::post(const std::string& path, const std::string& form,
                                      const std::string& token) {
  httplib::Client c("127.0.0.1", port_);
  c.set_read_timeout(5, 0);
  return c.Post(path.c_str(), bearer(token), form, "application/x-www-form-urlencoded");
}

Json EmulatorProcess::admin_get(const std::string& path) {
  httplib::Client c("127.0.0.1", port_);
  auto r = c.Get(path.c_str());
  if (!r) throw std::runtime_error("admin GET " + path + " failed");
  return Json::parse(r->body);
}

std::string EmulatorProcess::admin_text(const std::string& path) {
  httplib::Client c("127.0.0.1", port_);
  auto r = c.Get(path.c_str());
  if (!r) throw std::runtime_error("admin GET " + path + " failed");
  return r->body;
}

Json EmulatorProcess::admin_post(const std::string& path, const Json& body) {
  httplib::Client c("127.0.0.1", port_);
  auto r = c.Post(path.c_str(), body.dump(), "application/json");
  if (!r) throw std::runtime_error("admin POST " + path + " failed");
  return Json::parse(r->body);
}

Json EmulatorProcess::wait_game(const std::string& id, const std::function<bool(const Json&)>& pred,
                                std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  Json g = admin_get("/admin/games/" + id);
  while (!pred(g) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(20ms);
    g = admin_get("/admin/games/" + id);
  }
  return g;
}

NdjsonStream::NdjsonStream(int port, std::string path, std::string user_agent, std::string token)
    : client_("127.0.0.1", port) {
  client_.set_read_timeout(10, 0);
  thread_ = std::thread([this, path, user_agent, token] {
    httplib::Headers h = {{"Authorization", "Bearer " + token}, {"User-Agent", user_agent}};
    auto r = client_.Get(
        path.c_str(), h,
        [this](const httplib::Response& res) {
          std::lock_guard lock(mu_);
          status_ = res.status;
          cv_.notify_all();
          return true;
        },
        [this](const char* data, std::size_t n) {
          on_data(data, n);
          return !stop_.load();
        });
    std::lock_guard lock(mu_);
    ended_ = true;
    clean_ = bool(r) && r->status == 200;
    if (r && status_ == 0) status_ = r->status;
    if (!r) status_ = status_ ? status_ : 0;
    cv_.notify_all();
  });
  // Return once the server has answered, so that what the test does next is seen by the stream.
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, 30s, [&] { return status_ != 0 || ended_; });
}

NdjsonStream::~NdjsonStream() {
  stop_ = true;
  client_.stop();
  if (thread_.joinable()) thread_.join();
}

void NdjsonStream::on_data(const char* data, std::size_t n) {
  std::lock_guard lock(mu_);
  partial_.append(data, n);
  std::size_t nl;
  while ((nl = partial_.find('\n')) != std::string::npos) {
    const std::string line = partial_.substr(0, nl);
    partial_.erase(0, nl + 1);
    if (line.empty()) {
      ++heartbeats_;
      continue;
    }
    try {
      lines_.push_back(Json::parse(line));
    } catch (const Json::exception&) {
      ++bad_lines_;
    }
  }
  cv_.notify_all();
}

std::optional<Json> NdjsonStream::wait_for(const std::function<bool(const Json&)>& pred,
                                           std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    while (taken_ < lines_.size()) {
      const Json& j = lines_[taken_++];
      if (pred(j)) return j;
    }
    if (ended_) {
      // Lines may have been parsed before the end; none left means it will never come.
      return std::nullopt;
    }
    if (cv_.wait_until(lock, deadline) == std::cv_status::timeout && taken_ >= lines_.size())
      return std::nullopt;
  }
}

std::optional<Json> NdjsonStream::wait_type(const std::string& type,
                                            std::chrono::milliseconds timeout) {
  return wait_for([&](const Json& j) { return j.value("type", "") == type; }, timeout);
}

bool NdjsonStream::wait_ended(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return ended_; });
}

bool NdjsonStream::ended_cleanly() const {
  std::lock_guard lock(mu_);
  return ended_ && clean_;
}

int NdjsonStream::status() const {
  std::lock_guard lock(mu_);
  return status_;
}

int NdjsonStream::heartbeats() const {
  std::lock_guard lock(mu_);
  return heartbeats_;
}

int NdjsonStream::bad_lines() const {
  std::lock_guard lock(mu_);
  return bad_lines_;
}

std::vector<Json> NdjsonStream::json_lines() const {
  std::lock_guard lock(mu_);
  return lines_;
}

bool within_30s(const std::function<bool()>& pred) {
  for (int i = 0; i < 3000; ++i) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pred();
}

std::string accept_new_challenge(EmulatorProcess& emu, NdjsonStream& events, const Json& spec) {
  const Json c = emu.admin_post("/admin/challenge", spec);
  if (!c.contains("id")) throw std::runtime_error("challenge refused: " + c.dump());
  const std::string id = c["id"];
  auto seen = events.wait_for([&](const Json& j) {
    return j.value("type", "") == "challenge" && j["challenge"]["id"] == id;
  });
  if (!seen) throw std::runtime_error("no challenge event for " + id);
  auto r = emu.post("/api/challenge/" + id + "/accept");
  if (!r || r->status != 200) throw std::runtime_error("accept failed for " + id);
  auto start = events.wait_for([&](const Json& j) {
    return j.value("type", "") == "gameStart" && j["game"]["gameId"] == id;
  });
  if (!start) throw std::runtime_error("no gameStart for " + id);
  return id;
}

std::string random_legal_move(const std::string& moves, unsigned seed) {
  Game g;
  std::istringstream in(moves);
  for (std::string m; in >> m;) g.play_uci(m);
  const MoveList legal = g.position().legal_moves();
  if (legal.empty()) return "";
  std::mt19937 rng(seed);
  return to_uci(legal[int(rng() % unsigned(legal.size()))]);
}

}  // namespace zh::emulator::test
