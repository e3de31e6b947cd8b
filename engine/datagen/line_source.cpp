#include "engine/datagen/line_source.h"

#include <chrono>
#include <vector>

#include "engine/datagen/record_format.h"

namespace zh::datagen {

LineSource::LineSource(const std::filesystem::path& file) : file_(file.string()) {
  if (!std::filesystem::exists(file)) throw FormatError("no such file: " + file.string());
  if (file.extension() == ".gz")
    gzip_ = std::make_unique<ChildProcess>(std::vector<std::string>{"gzip", "-dc", file.string()});
  else
    plain_.open(file);
  if (!gzip_ && !plain_) throw FormatError("cannot read " + file.string());
}

bool LineSource::next(std::string& line) {
  if (!gzip_) return bool(std::getline(plain_, line));
  if (gzip_->read_line(line, std::chrono::hours(1)) == ChildProcess::ReadStatus::kLine) return true;
  // A corrupt or truncated .gz ends early: say so rather than read part of it silently.
  if (const ExitStatus status = gzip_->wait_exit(); !status.success())
    throw FormatError(file_ + ": gzip failed (" + status.describe() +
                      "; corrupt or truncated file); the lines before it were read");
  return false;
}

}  // namespace zh::datagen
