// Writes golden positions twice: as a training shard (through the record format) and as the
// encoder's raw float32 planes, so training/tests/test_records.py can check that Python's
// decoding gives back exactly what the C++ encoder produced, in either input format.
//   write_golden_records OUT.zhrec OUT.f32 [1.0|2.0]
#include <cstdio>
#include <fstream>
#include <vector>

#include "engine/datagen/labelling.h"
#include "engine/datagen/shard_io.h"
#include "engine/nn/encoder.h"

int main(int argc, char** argv) {
  using namespace zh;
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: write_golden_records OUT.zhrec OUT.f32 [1.0|2.0]\n");
    return 2;
  }
  const InputFormat format = parse_input_format(argc == 4 ? argv[3] : "1.0");
  struct Golden {
    const char* fen;
    int repetitions;
    Move last, before;  // the last moves (format 2.0), as written: any squares do
  };
  const Move drop = Move::drop(kKnight, 45), e2e4 = Move::normal(12, 28);
  const Golden golden[] = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", 0, Move(), Move()},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 4 3", 1, e2e4, Move()},
      {"r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1", 2, drop, e2e4},
      {"2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - - 0 1", 0, e2e4, drop},
      {"b3kb2/pn1ppp1Q~/pPqr2p1/2p5/7R/R5P1/P1PP1PBP/1NBQ2NK/PNR w - - 4 6", 0, drop, drop},
      {"rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR[] w KQkq d6 0 3", 0, e2e4, e2e4},
      {"5R2/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnppp] b - - 11 47", 0, drop, e2e4},
      {"rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR[] b KQkq - 1 3", 0, e2e4, drop},
  };
  const std::filesystem::path shard(argv[1]);
  std::filesystem::remove(shard);
  std::ofstream planes_out(argv[2], std::ios::binary);
  std::vector<datagen::Record> records;
  for (const Golden& g : golden) {
    const Position pos = Position::from_fen(g.fen);
    const datagen::TeacherLine line{pos.legal_moves()[0], 17, 0};
    const EvalInput input{pos, g.repetitions, {g.last, g.before}};
    records.push_back(datagen::make_record(input, 0, 99, {&line, 1}, 0.0f));
    std::vector<float> planes(std::size_t(input_size(format)));
    encode_position(input, planes, true, format);
    planes_out.write(reinterpret_cast<const char*>(planes.data()),
                     std::streamsize(planes.size() * sizeof(float)));
  }
  // ShardWriter numbers its files; write to a scratch dir and move the one shard into place.
  const auto scratch = shard.parent_path() / (shard.filename().string() + ".d");
  std::filesystem::remove_all(scratch);
  {
    datagen::ShardWriter writer(scratch, "golden", 1000, 0.0f, Millis(0), steady_clock(), format);
    writer.add_game(records);
  }
  std::filesystem::rename(datagen::list_shards(scratch).at(0), shard);
  std::filesystem::remove_all(scratch);
  return 0;
}
