#include "engine/datagen/shard_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <string_view>

namespace zh::datagen {
namespace fs = std::filesystem;

namespace {

// The number of a shard file named <prefix>-<digits>.zhrec or <prefix>-<digits>.zhrec.tmp;
// nothing for any other name, or for a number that does not fit an int.
std::optional<int> shard_number(std::string_view file, std::string_view prefix) {
  if (!file.starts_with(prefix) || file.substr(prefix.size()).substr(0, 1) != "-")
    return std::nullopt;
  file.remove_prefix(prefix.size() + 1);
  if (file.empty() || file[0] < '0' || file[0] > '9') return std::nullopt;  // no sign
  int number = 0;
  const auto [end, ec] = std::from_chars(file.data(), file.data() + file.size(), number);
  const std::string_view rest(end, static_cast<std::size_t>(file.data() + file.size() - end));
  if (ec != std::errc() || (rest != ".zhrec" && rest != ".zhrec.tmp")) return std::nullopt;
  return number;
}

}  // namespace

ShardWriter::ShardWriter(fs::path dir, std::string prefix, std::size_t records_per_shard,
                         float policy_temperature_cp, Millis max_age, Clock& clock,
                         InputFormat format)
    : dir_(std::move(dir)),
      prefix_(std::move(prefix)),
      per_shard_(std::max<std::size_t>(1, records_per_shard)),
      temperature_(policy_temperature_cp),
      max_age_(max_age),
      clock_(clock),
      format_(format) {
  fs::create_directories(dir_);
  // Continue after the highest number present (complete or temporary): never overwrite.
  for (const auto& entry : fs::directory_iterator(dir_)) {
    if (const auto n = shard_number(entry.path().filename().string(), prefix_))
      next_number_ = std::max(next_number_, *n + 1);
  }
}

ShardWriter::~ShardWriter() {
  try {
    close();
  } catch (...) {  // a destructor must not throw; close() reports errors when called directly
  }
}

void ShardWriter::open_next() {
  char number[16];
  std::snprintf(number, sizeof number, "%06d", next_number_++);
  final_path_ = dir_ / (prefix_ + "-" + number + kShardSuffix);
  tmp_path_ = final_path_;
  tmp_path_ += ".tmp";
  out_.open(tmp_path_, std::ios::binary | std::ios::trunc);
  if (!out_) throw FormatError("cannot write " + tmp_path_.string());
  const ShardHeader header = make_header(0, temperature_, format_);
  out_.write(reinterpret_cast<const char*>(&header), sizeof header);
  in_current_ = 0;
  opened_at_ = clock_.now();
}

void ShardWriter::finish_current() {
  if (!out_.is_open()) return;
  const ShardHeader header = make_header(in_current_, temperature_, format_);
  out_.seekp(0);
  out_.write(reinterpret_cast<const char*>(&header), sizeof header);
  out_.close();
  if (!out_) throw FormatError("writing " + tmp_path_.string() + " failed");
  const int fd = ::open(tmp_path_.c_str(), O_RDONLY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
  if (in_current_ == 0) {
    fs::remove(tmp_path_);
    return;
  }
  fs::rename(tmp_path_, final_path_);
  written_.push_back(final_path_);
}

void ShardWriter::add_game(std::span<const Record> records) {
  if (records.empty()) return;
  std::lock_guard lock(mutex_);
  if (!out_.is_open()) open_next();
  const std::streamsize size = record_size_of(format_);  // a version-1 record is cut short
  for (const Record& r : records) out_.write(reinterpret_cast<const char*>(&r), size);
  if (!out_) throw FormatError("writing " + tmp_path_.string() + " failed (disk full?)");
  in_current_ += records.size();
  total_ += records.size();
  const bool old = max_age_ > Millis(0) && clock_.now() - opened_at_ >= max_age_;
  if (in_current_ >= per_shard_ || old) finish_current();
}

void ShardWriter::close() {
  std::lock_guard lock(mutex_);
  finish_current();
}

std::uint64_t ShardWriter::records_written() const {
  std::lock_guard lock(mutex_);
  return total_;
}

std::vector<fs::path> ShardWriter::shards_written() const {
  std::lock_guard lock(mutex_);
  return written_;
}

std::vector<Record> parse_shard(std::span<const std::uint8_t> bytes, const std::string& source) {
  if (bytes.size() < sizeof(ShardHeader))
    throw FormatError(source + ": truncated header (" + std::to_string(bytes.size()) + " of " +
                      std::to_string(sizeof(ShardHeader)) + " bytes)");
  ShardHeader header;
  std::memcpy(&header, bytes.data(), sizeof header);
  const std::uint64_t size = record_size_of(check_header(header, source));
  const std::uint64_t available = (bytes.size() - sizeof header) / size;
  if (available < header.record_count || (bytes.size() - sizeof header) % size != 0) {
    const std::uint64_t at = sizeof header + std::min(available, header.record_count) * size;
    throw FormatError(source + ": truncated or padded at offset " + std::to_string(at) +
                      " (header says " + std::to_string(header.record_count) +
                      " records, file holds " + std::to_string(bytes.size()) + " bytes)");
  }
  if (available > header.record_count)
    throw FormatError(source + ": " + std::to_string(available - header.record_count) +
                      " records after the count in the header (offset " +
                      std::to_string(sizeof header + header.record_count * size) + ")");
  std::vector<Record> records(header.record_count);  // zeroed: a version-1 record is shorter
  for (std::size_t i = 0; i < records.size(); ++i) {
    std::memcpy(&records[i], bytes.data() + sizeof header + i * size, size);
    const Record& r = records[i];
    if (r.pv_count < 1 || r.pv_count > kPolicySlots)
      throw FormatError(source + ": record " + std::to_string(i) + " (offset " +
                        std::to_string(sizeof header + i * size) + ") has " +
                        std::to_string(int(r.pv_count)) + " policy slots in use");
  }
  return records;
}

std::vector<Record> read_shard(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError("cannot read " + path.string());
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  return parse_shard(bytes, path.string());
}

ShardHeader read_shard_header(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  ShardHeader header;
  if (!in.read(reinterpret_cast<char*>(&header), sizeof header))
    throw FormatError(path.string() + ": truncated header");
  check_header(header, path.string());
  return header;
}

void write_shard(const fs::path& path, std::span<const Record> records, float policy_temperature_cp,
                 InputFormat format) {
  if (fs::exists(path)) throw FormatError(path.string() + " exists already; not overwritten");
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    const ShardHeader header = make_header(records.size(), policy_temperature_cp, format);
    out.write(reinterpret_cast<const char*>(&header), sizeof header);
    for (const Record& r : records)
      out.write(reinterpret_cast<const char*>(&r), std::streamsize(record_size_of(format)));
    if (!out.flush()) throw FormatError("writing " + tmp.string() + " failed (disk full?)");
  }
  fs::rename(tmp, path);
}

std::vector<fs::path> list_shards(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == kShardSuffix) out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace zh::datagen
