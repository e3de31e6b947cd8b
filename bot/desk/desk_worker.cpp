#include "bot/desk/desk_worker.h"

#include <spdlog/spdlog.h>

#include <exception>

namespace zh::bot {

DeskWorker::DeskWorker() : thread_([this] { run(); }) {}

DeskWorker::~DeskWorker() { stop(); }

void DeskWorker::post(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    jobs_.push_back(std::move(job));
  }
  cv_.notify_one();
}

int DeskWorker::backlog() const {
  std::lock_guard lock(mutex_);
  return int(jobs_.size()) + running_;
}

void DeskWorker::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    jobs_.clear();
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void DeskWorker::run() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
      running_ = 1;
    }
    try {
      job();
    } catch (const std::exception& e) {
      // A job is an HTTP call and its bookkeeping; one that throws must not end the worker.
      spdlog::error("challenge desk: a request failed unexpectedly: {}", e.what());
    }
    std::lock_guard lock(mutex_);
    running_ = 0;
  }
}

}  // namespace zh::bot
