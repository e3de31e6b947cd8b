#include "engine/datagen/jsonl_import.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "engine/chess/notation.h"
#include "engine/nn/encoder.h"
#include "engine/nn/policy_map.h"
#include "tests/support/test_paths.h"

namespace zh::datagen {
namespace {
namespace fs = std::filesystem;

const fs::path kSample = fs::path(zh::test::data_dir()) / "datagen" / "sample.jsonl";

fs::path fresh_dir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("zh-import-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<Record> import_all(const fs::path& file, const fs::path& dir, ImportReport& report) {
  ShardWriter writer(dir, "sample", 1000, 0.0f);
  std::ostringstream log;
  report = import_jsonl(file, writer, log);
  writer.close();
  std::vector<Record> all;
  for (const auto& s : list_shards(dir))
    for (const auto& r : read_shard(s)) all.push_back(r);
  return all;
}

TEST(JsonlImport, GoodLinesBecomeRecordsAndBadOnesAreCounted) {
  ImportReport report;
  const auto records = import_all(kSample, fresh_dir("plain"), report);
  EXPECT_EQ(report.lines, 10);
  EXPECT_EQ(report.records, 6);
  EXPECT_EQ(report.games, 2);
  EXPECT_EQ(report.bad_json, 1);
  EXPECT_EQ(report.bad_fen, 1);
  EXPECT_EQ(report.illegal_move, 1);
  EXPECT_EQ(report.bad_result, 1);
  ASSERT_EQ(report.examples.size(), 4u);
  EXPECT_NE(report.examples[0].find("line 3"), std::string::npos) << report.examples[0];
  ASSERT_EQ(records.size(), 6u);

  // Teacher move and result, from the side to move's view.
  const Position start;
  EXPECT_EQ(records[0].policy_index[0], policy_index(parse_uci(start, "g1f3"), kWhite));
  EXPECT_EQ(records[0].result, kWin);
  EXPECT_EQ(records[1].result, kLoss);  // black to move in a 1-0 game
  EXPECT_EQ(records[0].score, 35);
  EXPECT_EQ(records[5].score, kMateScore - 2);
  EXPECT_EQ(records[5].result, kWin);  // black to move, 0-1
  EXPECT_EQ(records[0].game_id, records[4].game_id);
  EXPECT_NE(records[0].game_id, records[5].game_id);
  EXPECT_EQ(records[4].ply, 4);
}

TEST(JsonlImport, RepetitionPlanesCountTheGamesEarlierPositions) {
  ImportReport report;
  const auto records = import_all(kSample, fresh_dir("rep"), report);
  ASSERT_EQ(records.size(), 6u);
  std::vector<float> planes(kInputSize);
  unpack_planes(records[0], planes);
  EXPECT_EQ(planes[plane::kRepetition * 64], 0.0f);
  unpack_planes(records[4], planes);  // the start position again, after four knight moves
  EXPECT_EQ(planes[plane::kRepetition * 64], 1.0f);
  EXPECT_EQ(planes[(plane::kRepetition + 1) * 64], 0.0f);
  // And the planes are exactly the encoder's for that position and count.
  std::vector<float> expected(kInputSize);
  encode_position(EvalInput{Position::from_fen(fen_of(records[4])), 1}, expected);
  EXPECT_EQ(planes, expected);
}

TEST(JsonlImport, ReadsGzipAndReportsACorruptOne) {
  const fs::path dir = fresh_dir("gz");
  const fs::path gz = dir / "sample.jsonl.gz";
  ASSERT_EQ(std::system(("gzip -c '" + kSample.string() + "' > '" + gz.string() + "'").c_str()), 0);
  ImportReport report;
  EXPECT_EQ(import_all(gz, dir / "out", report).size(), 6u);

  const fs::path broken = dir / "broken.jsonl.gz";
  ASSERT_EQ(std::system(("head -c 120 '" + gz.string() + "' > '" + broken.string() + "'").c_str()),
            0);
  EXPECT_THROW(import_all(broken, dir / "out2", report), FormatError);
  EXPECT_THROW(import_all(dir / "missing.jsonl", dir / "out3", report), FormatError);
}

}  // namespace
}  // namespace zh::datagen
