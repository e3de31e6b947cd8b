// Writes golden positions twice: as a training shard (through the record format) and as the
// encoder's raw float32 planes, so training/tests/test_records.py can check that Python's
// decoding gives back exactly what the C++ encoder produced.
//   write_golden_records OUT.zhrec OUT.f32
#include <cstdio>
#include <fstream>
#include <vector>

#include "engine/datagen/labelling.h"
#include "engine/datagen/shard_io.h"
#include "engine/nn/encoder.h"

int main(int argc, char** argv) {
  using namespace zh;
  if (argc != 3) {
    std::fprintf(stderr, "usage: write_golden_records OUT.zhrec OUT.f32\n");
    return 2;
  }
  struct Golden {
    const char* fen;
    int repetitions;
  };
  const Golden golden[] = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", 0},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 4 3", 1},
      {"r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1", 2},
      {"2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - - 0 1", 0},
      {"b3kb2/pn1ppp1Q~/pPqr2p1/2p5/7R/R5P1/P1PP1PBP/1NBQ2NK/PNR w - - 4 6", 0},
      {"rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR[] w KQkq d6 0 3", 0},
      {"5R2/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnppp] b - - 11 47", 0},
  };
  const std::filesystem::path shard(argv[1]);
  std::filesystem::remove(shard);
  std::ofstream planes_out(argv[2], std::ios::binary);
  std::vector<datagen::Record> records;
  for (const Golden& g : golden) {
    const Position pos = Position::from_fen(g.fen);
    const datagen::TeacherLine line{pos.legal_moves()[0], 17, 0};
    records.push_back(datagen::make_record(pos, g.repetitions, 0, 99, {&line, 1}, 0.0f));
    std::vector<float> planes(kInputSize);
    encode_position(EvalInput{pos, g.repetitions}, planes);
    planes_out.write(reinterpret_cast<const char*>(planes.data()),
                     std::streamsize(planes.size() * sizeof(float)));
  }
  // ShardWriter numbers its files; write to a scratch dir and move the one shard into place.
  const auto scratch = shard.parent_path() / (shard.filename().string() + ".d");
  std::filesystem::remove_all(scratch);
  {
    datagen::ShardWriter writer(scratch, "golden", 1000, 0.0f);
    writer.add_game(records);
  }
  std::filesystem::rename(datagen::list_shards(scratch).at(0), shard);
  std::filesystem::remove_all(scratch);
  return 0;
}
