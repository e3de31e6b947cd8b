#include "engine/datagen/shard_io.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

#include "tests/support/fake_clock.h"

namespace zh::datagen {
namespace {
namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("zh-shard-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<Record> game(std::uint64_t id, int n) {
  std::vector<Record> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    out[std::size_t(i)].game_id = id;
    out[std::size_t(i)].ply = std::uint16_t(i);
    out[std::size_t(i)].pv_count = 1;
    out[std::size_t(i)].policy_prob[0] = 1.0f;
  }
  return out;
}

TEST(ShardIo, RoundTripAndGamesAreNeverSplit) {
  const fs::path dir = fresh_dir("roundtrip");
  {
    ShardWriter w(dir, "t", 5, 60.0f);
    w.add_game(game(1, 3));
    w.add_game(game(2, 4));  // 7 >= 5: this shard closes after the whole game
    w.add_game(game(3, 2));
  }
  const auto shards = list_shards(dir);
  ASSERT_EQ(shards.size(), 2u);
  const auto first = read_shard(shards[0]);
  const auto second = read_shard(shards[1]);
  ASSERT_EQ(first.size(), 7u);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(first[3].game_id, 2u);
  EXPECT_EQ(first[6].ply, 3);
  EXPECT_EQ(second[1].game_id, 3u);
  EXPECT_FLOAT_EQ(read_shard_header(shards[0]).policy_temperature_cp, 60.0f);
}

// Version 2 keeps format 2.0's planes and the last moves; version 1 cuts them off, and its
// records read back with those fields zero.
TEST(ShardIo, EachInputFormatKeepsItsOwnFields) {
  std::vector<Record> records = game(4, 2);
  records[1].extra_masks[2] = 0x8100;
  records[1].extra_constants[6] = 0.25f;
  records[1].last_moves[0] = 777;
  for (InputFormat f : {InputFormat::kV1, InputFormat::kV2}) {
    const fs::path dir = fresh_dir(std::string("format-") + input_version(f));
    { ShardWriter(dir, "t", 100, 0.0f, Millis(0), steady_clock(), f).add_game(records); }
    const fs::path shard = list_shards(dir).at(0);
    EXPECT_EQ(fs::file_size(shard), kHeaderSize + 2 * record_size_of(f));
    EXPECT_EQ(check_header(read_shard_header(shard), "x"), f);
    const std::vector<Record> back = read_shard(shard);
    ASSERT_EQ(back.size(), 2u);
    const bool v2 = f == InputFormat::kV2;
    EXPECT_EQ(back[1].extra_masks[2], v2 ? 0x8100u : 0u);
    EXPECT_EQ(back[1].extra_constants[6], v2 ? 0.25f : 0.0f);
    EXPECT_EQ(back[1].last_moves[0], v2 ? 777 : 0);
    EXPECT_EQ(back[1].game_id, 4u);
  }
}

TEST(ShardIo, AShardOpenTooLongIsClosedAfterTheGameThatFindsItOld) {
  const fs::path dir = fresh_dir("age");
  zh::test::FakeClock clock;
  ShardWriter w(dir, "t", 1000, 0.0f, std::chrono::minutes(10), clock);
  w.add_game(game(1, 2));
  clock.advance(std::chrono::minutes(9));
  w.add_game(game(2, 2));
  EXPECT_TRUE(w.shards_written().empty()) << "closed before it was 10 minutes old";
  clock.advance(std::chrono::minutes(1));
  w.add_game(game(3, 2));  // the shard is 10 minutes old: closed with this game in it
  ASSERT_EQ(w.shards_written().size(), 1u);
  EXPECT_EQ(read_shard(w.shards_written()[0]).size(), 6u);
  w.add_game(game(4, 2));  // a new shard, its own age
  EXPECT_EQ(w.shards_written().size(), 1u);
  w.close();
  EXPECT_EQ(w.shards_written().size(), 2u);
}

TEST(ShardIo, ANewRunAddsShardsAndOverwritesNone) {
  const fs::path dir = fresh_dir("resume");
  {
    ShardWriter w(dir, "t", 100, 0.0f);
    w.add_game(game(1, 2));
  }
  {
    ShardWriter w(dir, "t", 100, 0.0f);
    w.add_game(game(2, 3));
  }
  const auto shards = list_shards(dir);
  ASSERT_EQ(shards.size(), 2u);
  EXPECT_EQ(read_shard(shards[0]).size(), 2u);
  EXPECT_EQ(read_shard(shards[1]).size(), 3u);
}

// A new writer numbers after its own prefix's shards, finished or left open by a killed run,
// and ignores every other name: no crash on a number too long for an int, no prefix taken as
// a pattern.
TEST(ShardIo, NumberingContinuesAfterOwnShardsOnly) {
  const fs::path dir = fresh_dir("numbering");
  for (const char* name :
       {"a+b-000003.zhrec", "a+b-000007.zhrec.tmp", "aab-000042.zhrec", "a+b-99999999999999.zhrec",
        "a+b-000050.zhrec.bak", "a+b-.zhrec", "a+b-0x20.zhrec", "a+b000060.zhrec"})
    std::ofstream(dir / name) << "x";
  { ShardWriter(dir, "a+b", 100, 0.0f).add_game(game(1, 2)); }
  EXPECT_TRUE(fs::exists(dir / "a+b-000008.zhrec"));
}

TEST(ShardIo, AnOpenShardIsNotVisibleUnderAShardName) {
  const fs::path dir = fresh_dir("tmp");
  ShardWriter w(dir, "t", 100, 0.0f);
  w.add_game(game(1, 2));
  EXPECT_TRUE(list_shards(dir).empty());  // still *.zhrec.tmp
  w.close();
  EXPECT_EQ(list_shards(dir).size(), 1u);
}

std::vector<std::uint8_t> bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(ShardIo, CorruptFilesGiveErrorsNamingFileAndOffset) {
  const fs::path dir = fresh_dir("corrupt");
  { ShardWriter(dir, "t", 100, 0.0f).add_game(game(1, 3)); }
  const auto good = bytes_of(list_shards(dir)[0]);
  auto message = [](std::vector<std::uint8_t> b) {
    try {
      parse_shard(b, "shard.zhrec");
    } catch (const FormatError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  auto truncated = good;
  truncated.resize(truncated.size() - 100);
  EXPECT_NE(message(truncated).find("offset " + std::to_string(kHeaderSize + 2 * 440)),
            std::string::npos)
      << message(truncated);
  EXPECT_NE(message({good.begin(), good.begin() + 50}).find("truncated header"), std::string::npos);
  auto extra = good;
  extra.resize(extra.size() + 440);
  EXPECT_NE(message(extra).find("after the count"), std::string::npos) << message(extra);
  auto bad_slots = good;
  bad_slots[kHeaderSize + offsetof(Record, pv_count)] = 9;
  EXPECT_NE(message(bad_slots).find("record 0"), std::string::npos) << message(bad_slots);
  EXPECT_NE(message(bad_slots).find("shard.zhrec"), std::string::npos);
}

// Found by fuzz_training_record: a header that counts no records made parse_shard call memcpy
// with a null destination (undefined behaviour, reported by UBSan in the asan build).
TEST(ShardIo, AHeaderWithoutRecordsIsAnEmptyShard) {
  const ShardHeader header = make_header(0, 0.0f);
  std::vector<std::uint8_t> bytes(sizeof header);
  std::memcpy(bytes.data(), &header, sizeof header);
  EXPECT_TRUE(parse_shard(bytes, "empty.zhrec").empty());
}

}  // namespace
}  // namespace zh::datagen
